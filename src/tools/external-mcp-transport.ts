// The SDK client transport for one external server config, with what the journal needs when the
// server fails or dies: the tail of its stderr and how its process ended (stdio).
import type { ChildProcess } from 'node:child_process';
import { trackChild } from '../common/children/child-registry';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isHttpConfig, transportOf, type ExternalMcpServerConfig, type McpTransport } from './external-mcp-config';
import { toolLaunch } from './sandbox/tool-isolation-host';

const STDERR_TAIL_CHARS = 4_000;

export interface OpenedTransport {
  transport: Transport;
  kind: McpTransport;
  /** the last characters the server wrote to stderr ('' over HTTP: its process is not Loupe's) */
  stderrTail(): string;
  /** how the server's process ended, once it has (stdio) */
  exit(): string | undefined;
  /** the server's process (stdio), once started */
  pid(): number | undefined;
  /** ends the server-side session (HTTP: DELETE, bounded; stdio: the process ends with the client) */
  endSession(): Promise<void>;
}

const END_SESSION_MS = 1_000;

/** Stdio transport that remembers the exit code or signal (the SDK's own close event drops them). */
class ObservedStdioTransport extends StdioClientTransport {
  exitDescription?: string;
  commandLine = '';

  override async start(): Promise<void> {
    await super.start();
    // the SDK keeps its child private; without it the journal would only say "connection closed"
    const child = (this as unknown as { _process?: ChildProcess })._process;
    // ended when Loupe exits, and swept after a kill -9 (the SDK cannot spawn it in a group of its own)
    if (child) trackChild(child, { group: false, command: this.commandLine });
    child?.once('exit', (code, signal) => {
      this.exitDescription = signal ? `the server process was killed by ${signal}` : `the server process exited with code ${code}`;
    });
  }
}

/** An error's message with its cause: fetch says only "fetch failed", the cause says ECONNREFUSED. */
export function errorText(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  const cause = err?.cause?.code ?? err?.cause?.message;
  const message = err?.message ?? String(e);
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}

/** `workspace`: the session's, which a server may reach although LOUPE_HOME is hidden from it (tool-isolation.ts). */
export function openTransport(config: ExternalMcpServerConfig, opts: { workspace?: string } = {}): OpenedTransport {
  if (isHttpConfig(config)) {
    const transport = new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers ?? {} } });
    return {
      transport,
      kind: 'http',
      stderrTail: () => '',
      exit: () => undefined,
      pid: () => undefined,
      // a long-lived server would otherwise keep every session a health probe or a trial opened
      endSession: () => Promise.race([transport.terminateSession(), new Promise<void>((r) => setTimeout(r, END_SESSION_MS).unref())]),
    };
  }
  let stderr = '';
  // inside the tool wrapper where bubblewrap can run it: no /proc of Loupe's to read, LOUPE_HOME hidden;
  // the SDK adds only a safe default set (PATH, HOME…) to the variables its config names
  const launch = toolLaunch([config.command, ...(config.args ?? [])], { env: config.env, cwd: config.cwd, workspace: opts.workspace });
  const transport = new ObservedStdioTransport({
    command: launch.command,
    args: launch.args,
    env: launch.env,
    cwd: config.cwd,
    stderr: 'pipe',
  });
  transport.commandLine = [config.command, ...(config.args ?? [])].join(' ');
  transport.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-STDERR_TAIL_CHARS);
  });
  return {
    transport,
    kind: transportOf(config),
    stderrTail: () => stderr.trim(),
    exit: () => transport.exitDescription,
    pid: () => transport.pid ?? undefined,
    endSession: async () => {},
  };
}
