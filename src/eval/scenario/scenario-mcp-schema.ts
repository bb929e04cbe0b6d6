// A scenario's `mcp_servers:` — the external MCP servers its session connects to:
//   { name, command, args?, env?, cwd? }                  a stdio server the session starts
//   { name, url, headers? }                                a Streamable HTTP server already running
//   { name, url, command, args?, env?, cwd? }              an HTTP server the runner starts for the trial
//   { name }                                               the server registered under that name (loupe mcp add)
// `${WORKSPACE}` (the trial's workspace) and `${PORT}` (a free port, for a server the runner starts)
// are replaced per trial; `kill_on:` kills a server the trial started when a matching event is recorded.
import { z } from 'zod';
import {
  envVars,
  httpHeaders,
  httpUrlProblem,
  MCP_SERVER_NAME,
  MCP_SERVER_NAME_RULE,
  type HttpServerConfig,
  type StdioServerConfig,
} from '../../tools/external-mcp-config';
import { killTrigger, type TriggerDocument } from './scenario-expectation-schema';

export const SCENARIO_PLACEHOLDERS = ['WORKSPACE', 'PORT'] as const;

export interface StartCommand {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export type ScenarioMcpServer =
  | { name: string; registered: true }
  | { name: string; config: StdioServerConfig; killOn?: TriggerDocument }
  /** `start`: the runner starts the server for the trial, waits until it answers, stops it after */
  | { name: string; config: HttpServerConfig; start?: StartCommand; killOn?: TriggerDocument };

const entry = z
  .strictObject({
    name: z.string().regex(MCP_SERVER_NAME, MCP_SERVER_NAME_RULE),
    transport: z.enum(['stdio', 'http']).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: envVars.optional(),
    cwd: z.string().min(1).optional(),
    url: z.string().optional(),
    headers: httpHeaders.optional(),
    kill_on: killTrigger.optional(),
  })
  .superRefine((m, ctx) => {
    const problem = (p: string, message: string) => ctx.addIssue({ code: 'custom', path: [p], message });
    const http = m.transport === 'http' || m.url !== undefined;
    if (m.transport === 'stdio' && m.url !== undefined) problem('url', 'a stdio server has no url (transport: stdio)');
    if (m.transport === 'http' && m.url === undefined) problem('url', 'required for transport: http');
    if (!http && m.headers) problem('headers', 'headers go with url (a Streamable HTTP server)');
    if (!http && m.command === undefined) {
      for (const k of ['transport', 'args', 'env', 'cwd', 'kill_on'] as const) {
        if (m[k] !== undefined) problem(k, 'an entry with only a name is a registered server: give command or url to define one here');
      }
    }
    if (m.command === undefined) {
      for (const k of ['args', 'env', 'cwd'] as const) if (m[k] !== undefined) problem(k, `${k} go with command`);
    }
    if (m.kill_on && http && m.command === undefined) problem('kill_on', 'only a server the trial starts can be killed: give command');
    const startsHttp = http && m.command !== undefined;
    const strings: Array<[string, string]> = [
      ['command', m.command ?? ''],
      ['cwd', m.cwd ?? ''],
      ['url', m.url ?? ''],
      ...(m.args ?? []).map((a, i): [string, string] => [`args.${i}`, a]),
      ...Object.entries(m.env ?? {}).map(([k, v]): [string, string] => [`env.${k}`, v]),
      ...Object.entries(m.headers ?? {}).map(([k, v]): [string, string] => [`headers.${k}`, v]),
    ];
    for (const [field, value] of strings) {
      for (const [, name] of value.matchAll(/\$\{([^}]*)\}/g)) {
        const at = field.split('.').map((p, i) => (i === 1 && field.startsWith('args') ? Number(p) : p));
        if (!(SCENARIO_PLACEHOLDERS as readonly string[]).includes(name)) {
          ctx.addIssue({
            code: 'custom',
            path: at,
            message: `unknown placeholder \${${name}} (known: ${SCENARIO_PLACEHOLDERS.map((p) => `\${${p}}`).join(', ')})`,
          });
        } else if (name === 'PORT' && !startsHttp) {
          ctx.addIssue({ code: 'custom', path: at, message: '${PORT} is the port of an HTTP server the runner starts (url and command)' });
        }
      }
    }
    if (m.url !== undefined) {
      const urlProblem = httpUrlProblem(m.url.replaceAll('${PORT}', '1'));
      if (urlProblem) problem('url', urlProblem);
    }
  });

export const mcpServersSchema = z.array(entry).superRefine((servers, ctx) => {
  const seen = new Set<string>();
  servers.forEach((s, i) => {
    if (seen.has(s.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `another server is named ${s.name}` });
    seen.add(s.name);
  });
});

type Entry = z.infer<typeof entry>;

/** YAML entries → runtime servers; `local` resolves paths (relative to the scenario file, so a suite runs from any directory). */
export function toScenarioMcpServers(entries: Entry[], local: (value: string) => string): ScenarioMcpServer[] {
  return entries.map((m): ScenarioMcpServer => {
    const killOn = m.kill_on;
    const start =
      m.command !== undefined
        ? { command: local(m.command), args: m.args?.map(local), env: m.env, cwd: m.cwd === undefined ? undefined : local(m.cwd) }
        : undefined;
    if (m.url !== undefined) {
      return { name: m.name, config: { transport: 'http', url: m.url, headers: m.headers }, start, killOn };
    }
    if (start) return { name: m.name, config: { transport: 'stdio', ...start }, killOn };
    return { name: m.name, registered: true };
  });
}
