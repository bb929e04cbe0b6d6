// A trial's external MCP servers, from the scenario's `mcp_servers:`: placeholders resolved
// (${WORKSPACE}, ${PORT}), registered servers looked up by name, HTTP servers the trial needs
// started (and stopped with it), and `kill_on:` triggers bound to the servers' processes.
import type { ExternalMcpServerConfig, McpServerConfig } from '../../tools/external-mcp-config';
import { freePort } from '../../common/free-port';
import { launchHttpServer, type LaunchedServer } from '../../tools/external-mcp-launch';
import type { ToolRegistry } from '../../tools/tool-registry';
import type { SessionWorkspace } from '../../tools/workspace/workspace-manager';
import type { ScenarioMcpServer } from '../scenario/scenario-mcp-schema';
import type { TriggerAction } from './trial-triggers';

export interface TrialMcpServers {
  configs: ExternalMcpServerConfig[];
  /** the scenario's `kill_on:` triggers, bound to this trial's servers */
  killActions(tools: ToolRegistry): TriggerAction[];
  close(): Promise<void>;
}

function substitute<T>(value: T, vars: Record<string, string>): T {
  const text = (s: string) => s.replace(/\$\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
  if (typeof value === 'string') return text(value) as T;
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)])) as T;
  return value;
}

export async function prepareMcpServers(
  servers: readonly ScenarioMcpServer[] | undefined,
  workspace: Pick<SessionWorkspace, 'dir' | 'ensure'>,
  registered: (names: string[]) => Promise<ExternalMcpServerConfig[]>,
): Promise<TrialMcpServers> {
  const launched = new Map<string, LaunchedServer>();
  const stopAll = () => Promise.all([...launched.values()].map((s) => s.stop())).then(() => undefined);
  const list = servers ?? [];
  try {
    const names = list.flatMap((s) => ('registered' in s ? [s.name] : []));
    const fromRegistry = new Map((names.length ? await registered(names) : []).map((c) => [c.name, c]));
    const configs: ExternalMcpServerConfig[] = [];
    for (const s of list) {
      if ('registered' in s) {
        configs.push(fromRegistry.get(s.name)!);
        continue;
      }
      const vars: Record<string, string> = { WORKSPACE: workspace.dir };
      if ('start' in s && s.start) {
        vars.PORT = String(await freePort());
        const url = substitute(s.config.url, vars);
        // the server starts in the workspace (a stdio server's is made when the session's tools connect it)
        workspace.ensure();
        launched.set(s.name, await launchHttpServer(substitute(s.start, vars), url, { workspace: workspace.dir }));
      }
      configs.push({ ...substitute<McpServerConfig>(s.config, vars), name: s.name });
    }
    return {
      configs,
      killActions: (tools) =>
        list.flatMap((s) =>
          'killOn' in s && s.killOn
            ? [
                {
                  trigger: s.killOn,
                  fire: () => {
                    const server = launched.get(s.name);
                    if (server) return server.kill('SIGKILL');
                    const pid = tools.serverPid(s.name);
                    if (pid) process.kill(pid, 'SIGKILL');
                  },
                },
              ]
            : [],
        ),
      close: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
