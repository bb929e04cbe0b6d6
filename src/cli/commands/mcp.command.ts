// `loupe mcp`: the registry of external MCP servers in Postgres, as the admin API offers it.
// Flags are checked before anything loads (bad input: exit 2); a taken or unknown name, or an
// unhealthy server, is exit 1.
import type { Command } from 'commander';
import type { INestApplicationContext } from '@nestjs/common';
import type { LoupeConfig } from '../../config/loupe-config';
import { MCP_SERVER_NAME, MCP_SERVER_NAME_RULE, validateMcpServer, type FieldError } from '../../tools/external-mcp-config';
import type { McpServersService, McpServerView } from '../../tools/mcp-servers.service';
import { EXIT, setVerdict } from '../exit-codes';
import { lazy } from '../lazy';
import { positiveInt, UsageError } from './eval.command';

function withServers<T>(config: LoupeConfig, fn: (s: McpServersService) => Promise<T>): Promise<T> {
  const { McpServersService: Service } = lazy.mcpServers();
  return lazy.appContext().withAppContext(config, (app: INestApplicationContext) => fn(app.get(Service)), { telemetry: false });
}

const collect = (value: string, previous: string[]) => [...previous, value];

function keyValues(pairs: string[], flag: string): Record<string, string> | undefined {
  if (!pairs.length) return undefined;
  return Object.fromEntries(
    pairs.map((p) => {
      const eq = p.indexOf('=');
      if (eq < 1) throw new UsageError(`${flag}: expected KEY=VALUE, got ${JSON.stringify(p)}`);
      return [p.slice(0, eq), p.slice(eq + 1)];
    }),
  );
}

/** A field of the request, named as the flag that sets it. */
function flagOf(field: string): string {
  const [top, key, sub] = field.split('.');
  if (top === 'name') return 'NAME';
  const flags: Record<string, string> = {
    command: '--command',
    args: '--arg',
    env: '--env',
    cwd: '--cwd',
    url: '--url',
    headers: '--header',
  };
  return key && flags[key] ? `${flags[key]}${sub ? ` ${sub}` : ''}` : field;
}

interface AddOptions {
  command?: string;
  arg: string[];
  env: string[];
  cwd?: string;
  url?: string;
  header: string[];
  json?: boolean;
}

/** The flags as the API's `{ name, config }`, or a UsageError naming every problem. */
export function addRequest(name: string, o: AddOptions): unknown {
  if (!o.command === !o.url)
    throw new UsageError('mcp add: give --command (a stdio server) or --url (a Streamable HTTP server), one of them');
  if (o.url && (o.arg.length || o.env.length || o.cwd))
    throw new UsageError('mcp add: --arg, --env and --cwd go with --command, not --url');
  if (o.command && o.header.length) throw new UsageError('mcp add: --header goes with --url, not --command');
  const config = o.url
    ? { transport: 'http', url: o.url, headers: keyValues(o.header, '--header') }
    : { transport: 'stdio', command: o.command, args: o.arg.length ? o.arg : undefined, env: keyValues(o.env, '--env'), cwd: o.cwd };
  const request = { name, config: JSON.parse(JSON.stringify(config)) as unknown };
  const checked = validateMcpServer(request);
  if (!checked.ok) throw new UsageError(`mcp add: ${checked.errors.map((e: FieldError) => `${flagOf(e.field)}: ${e.message}`).join('; ')}`);
  return request;
}

function checkName(name: string): string {
  if (!MCP_SERVER_NAME.test(name)) throw new UsageError(`NAME: ${MCP_SERVER_NAME_RULE}, got ${JSON.stringify(name)}`);
  return name;
}

function line(s: McpServerView): string {
  const health =
    s.status === 'connected'
      ? `connected, ${s.toolCount} tools, ${s.latencyMs} ms`
      : s.status === 'failed'
        ? `failed: ${s.lastError}`
        : 'not checked';
  return `${s.name.padEnd(24)} ${s.transport.padEnd(5)} ${s.endpoint}\n${''.padEnd(24)} ${health}${s.checkedAt ? ` (checked ${s.checkedAt})` : ''}`;
}

export function registerMcpCommand(program: Command, getConfig: () => LoupeConfig): void {
  const mcp = program.command('mcp').description('External MCP servers registered in Postgres (stdio or Streamable HTTP)');

  mcp
    .command('add')
    .argument('<name>', 'the server\'s name (lowercase letters, digits, "_", "-")')
    .description('register a server: --command CMD [--arg A …] [--env K=V …] [--cwd DIR] | --url URL [--header K=V …]')
    .option('--command <cmd>', 'the program that starts a stdio server')
    .option('--arg <arg>', 'an argument for --command (repeat; --arg=-x for one starting with "-")', collect, [])
    .option('--env <K=V>', 'an environment variable for --command (repeat)', collect, [])
    .option('--cwd <dir>', 'the working directory for --command (absolute)')
    .option('--url <url>', 'the endpoint of a Streamable HTTP server')
    .option('--header <K=V>', 'an HTTP header for --url (repeat)', collect, [])
    .option('--json', 'print the registered server as JSON')
    .action(async (name: string, opts: AddOptions) => {
      const request = addRequest(name, opts);
      const { McpServerExistsError } = lazy.mcpErrors();
      try {
        const added = await withServers(getConfig(), (s) => s.add(request));
        process.stdout.write(
          opts.json ? `${JSON.stringify(added, null, 2)}\n` : `added ${added.name} (${added.transport}: ${added.endpoint})\n`,
        );
      } catch (e) {
        if (!(e instanceof McpServerExistsError)) throw e;
        process.stderr.write(`${e.message}; remove it first (loupe mcp rm ${name})\n`);
        setVerdict(EXIT.FAILED);
      }
    });

  mcp
    .command('list')
    .option('--json', 'machine-readable output')
    .description('registered servers with their last health check')
    .action(async (opts: { json?: boolean }) => {
      const servers = await withServers(getConfig(), (s) => s.list());
      if (opts.json) return void process.stdout.write(`${JSON.stringify(servers, null, 2)}\n`);
      process.stdout.write(servers.length ? `${servers.map(line).join('\n')}\n` : 'no MCP servers registered (loupe mcp add)\n');
    });

  mcp
    .command('health')
    .option('--json', 'machine-readable output')
    .option('--timeout-ms <ms>', 'how long each server has to connect and list its tools', (v) => positiveInt(v, '--timeout-ms'))
    .description('connect to every registered server and list its tools now; exit 1 if any fails')
    .action(async (opts: { json?: boolean; timeoutMs?: number }) => {
      const report = await withServers(getConfig(), (s) => s.health(opts.timeoutMs));
      if (opts.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else if (!report.total) process.stdout.write('no MCP servers registered (loupe mcp add)\n');
      else process.stdout.write(`${report.servers.map(line).join('\n')}\n${report.healthy} of ${report.total} healthy\n`);
      if (report.failed) setVerdict(EXIT.FAILED);
    });

  mcp
    .command('rm')
    .argument('<name>')
    .description('remove a registered server')
    .action(async (name: string) => {
      checkName(name);
      const { McpServerNotFoundError } = lazy.mcpErrors();
      try {
        await withServers(getConfig(), (s) => s.remove(name));
        process.stdout.write(`removed ${name}\n`);
      } catch (e) {
        if (!(e instanceof McpServerNotFoundError)) throw e;
        process.stderr.write(`${e.message}\n`);
        setVerdict(EXIT.FAILED);
      }
    });
}
