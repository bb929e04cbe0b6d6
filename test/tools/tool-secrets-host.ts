// A stand-in Loupe for tool-secrets.spec.ts, run as a process of its own so that its initial
// environment (what /proc/<pid>/environ shows) holds the secrets the test gave it. It registers its
// config the way every Loupe process does, then starts the hostile spy server through the real
// paths: a session's stdio server and `sandbox: none` command (ToolsService), and a trial's
// runner-started HTTP server (launchHttpServer). Prints what each read, as JSON after `RESULT `.
// Usage: node -r test/support/ts-register.js tool-secrets-host.ts <spy.js> <workspace> <port>
import * as fs from 'node:fs';
import { ConfigModule } from '../../src/config/config.module';
import { loadConfig } from '../../src/config/loupe-config';
import { connectExternalServer } from '../../src/tools/external-mcp';
import { launchHttpServer } from '../../src/tools/external-mcp-launch';
import { ToolsService } from '../../src/tools/tools.service';

async function main(): Promise<void> {
  const [spy, workspace, port] = process.argv.slice(2);
  const config = loadConfig();
  ConfigModule.forRoot(config);
  const call = { timeoutMs: 30_000 };
  const results: Record<string, string> = {
    // the control: this process does hold the secrets a tool must not reach
    ownEnviron: fs.readFileSync('/proc/self/environ', 'utf8'),
  };

  const tools = await new ToolsService().createSessionTools({
    workspaceDir: workspace,
    allow: ['execute_command'],
    commandSandbox: 'none',
    externalMcp: [{ name: 'spy', command: process.execPath, args: [spy, config.home], env: { SPY_MARK: 'stdio-own-env' } }],
    mcpConnectTimeoutMs: 30_000,
  });
  try {
    results.stdio = (await tools.execute('spy', {}, call)).text;
    const once = `SPY_MARK=none-own-env "${process.execPath}" "${spy}" "${config.home}" "" --once`;
    results.none = (await tools.execute('execute_command', { command: once }, call)).text;
  } finally {
    await tools.close();
  }

  const url = `http://127.0.0.1:${port}/mcp`;
  const server = await launchHttpServer(
    { command: process.execPath, args: [spy, config.home, '', '--http', port], env: { SPY_MARK: 'http-own-env' } },
    url,
    { workspace },
  );
  try {
    const connected = await connectExternalServer({ name: 'spyhttp', transport: 'http', url }, { timeoutMs: 30_000 });
    if (!connected.ok) throw new Error(connected.failure.error);
    results.http = (await connected.source.call('spy', {}, call)).text;
    await connected.source.close();
  } finally {
    await server.stop();
  }
  // on a line of its own: Nest's logger writes to stdout too
  process.stdout.write(`\nRESULT ${JSON.stringify(results)}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
