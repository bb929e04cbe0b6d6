// run_command: a shell command in the session's workspace, with a scrubbed environment (no secrets
// from Loupe's own env), a timeout that kills the whole process group, and capped output.
// It starts in the workspace but is not a filesystem sandbox: it is off unless a session allows it.
import { spawn } from 'node:child_process';

export const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 64_000;

export interface CommandResult {
  exitCode: number | null;
  signal: string | null;
  output: string;
  timedOut: boolean;
  aborted: boolean;
  truncatedBytes: number;
}

/** Only what a command needs to run; never the caller's tokens, URLs or credentials. */
export function scrubbedEnv(workspace: string, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    PATH: parent.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: workspace,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'dumb',
    TMPDIR: workspace,
  };
}

export function runCommand(
  command: string,
  opts: { cwd: string; timeoutMs?: number; maxOutputBytes?: number; signal?: AbortSignal; env?: Record<string, string> },
): Promise<CommandResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const cap = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      cwd: opts.cwd, env: opts.env ?? scrubbedEnv(opts.cwd), detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncatedBytes = 0;
    let timedOut = false;
    let aborted = false;
    const collect = (b: Buffer) => {
      const room = cap - kept;
      if (room > 0) {
        chunks.push(b.subarray(0, room));
        kept += Math.min(room, b.length);
      }
      truncatedBytes += Math.max(0, b.length - Math.max(room, 0));
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    // the command may start children of its own: signal the whole group
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode, signal, output: Buffer.concat(chunks).toString('utf8'), timedOut, aborted, truncatedBytes });
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ exitCode: null, signal: null, output: `failed to start: ${e.message}`, timedOut, aborted, truncatedBytes });
    });
  });
}

export function describeCommandResult(r: CommandResult, timeoutMs: number): { text: string; isError: boolean } {
  const tail = r.truncatedBytes ? `\n[... output truncated: ${r.truncatedBytes} more bytes]` : '';
  if (r.timedOut) return { text: `${r.output}${tail}\n[command timed out after ${timeoutMs} ms and was killed]`, isError: true };
  if (r.aborted) return { text: `${r.output}${tail}\n[command aborted]`, isError: true };
  const status = r.exitCode === 0 ? '' : `\n[exit code ${r.exitCode ?? `signal ${r.signal}`}]`;
  return { text: `${r.output}${tail}${status}` || '(no output)', isError: r.exitCode !== 0 };
}
