// External MCP servers a session asks for, connected through the official SDK client over stdio or
// Streamable HTTP, each within a deadline. A server that fails to connect is reported and skipped:
// the session goes on without its tools (direct-process spec, "External MCP connection failure").
import { endpointOf, isHttpConfig, transportOf, type ExternalMcpServerConfig, type McpTransport } from './external-mcp-config';
import { errorText, openTransport } from './external-mcp-transport';
import { McpToolSource } from './mcp-tool-source';

export type { ExternalMcpServerConfig } from './external-mcp-config';

export interface ExternalMcpFailure {
  name: string;
  transport: McpTransport;
  /** stdio: the command line */
  command?: string;
  /** http: the endpoint */
  url?: string;
  error: string;
  stderr: string;
}

export const MCP_CONNECT_TIMEOUT_MS = 10_000;

/** Rejects after `ms` unless `work` settles first; the caller cleans up what `work` started. */
function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not complete within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export type ConnectResult = { ok: true; source: McpToolSource } | { ok: false; failure: ExternalMcpFailure };

/** Connects one server and lists its tools, all within `timeoutMs`. */
export async function connectExternalServer(
  config: ExternalMcpServerConfig,
  opts: { timeoutMs?: number; workspace?: string } = {},
): Promise<ConnectResult> {
  const timeoutMs = opts.timeoutMs ?? MCP_CONNECT_TIMEOUT_MS;
  const opened = openTransport(config, { workspace: opts.workspace });
  try {
    const source = await within(
      McpToolSource.connect(config.name, opened.transport, {
        timeoutMs,
        transport: opened.kind,
        pid: opened.pid,
        stderrTail: opened.stderrTail,
        exit: opened.exit,
        beforeClose: opened.endSession,
      }),
      timeoutMs,
      'connecting and listing tools',
    );
    return { ok: true, source };
  } catch (e) {
    // a server that did not come up in time gets no graceful shutdown (the SDK's waits seconds)
    const pid = opened.pid();
    if (pid) killQuietly(pid);
    await opened.transport.close().catch(() => undefined);
    const where = isHttpConfig(config) ? { url: config.url } : { command: endpointOf(config) };
    const error = opened.exit() ? `${errorText(e)} (${opened.exit()})` : errorText(e);
    return { ok: false, failure: { name: config.name, transport: transportOf(config), ...where, error, stderr: opened.stderrTail() } };
  }
}

export async function connectExternalServers(
  configs: readonly ExternalMcpServerConfig[],
  opts: { timeoutMs?: number; workspace?: string } = {},
): Promise<{ sources: McpToolSource[]; failures: ExternalMcpFailure[] }> {
  const results = await Promise.all(configs.map((c) => connectExternalServer(c, opts)));
  return {
    sources: results.flatMap((r) => (r.ok ? [r.source] : [])),
    failures: results.flatMap((r) => (r.ok ? [] : [r.failure])),
  };
}
