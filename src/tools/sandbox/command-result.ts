// A finished command as the model reads it: its output, then one line for each way it ended
// other than a clean exit (timeout, abort, output cap, memory, exit status).
import type { CommandLimits } from './command-limits';

export interface CommandResult {
  exitCode: number | null;
  signal: string | null;
  output: string;
  /** output bytes received beyond the cap and dropped */
  truncatedBytes: number;
  timedOut: boolean;
  aborted: boolean;
  /** killed for printing more than the output cap */
  outputLimitHit: boolean;
  /** a process of the command was killed by the kernel for exceeding the memory limit */
  outOfMemory: boolean;
  /** the process-count limit refused a fork (the command went on, with fork failures) */
  processLimitHit: boolean;
  /** the workspace held more than the disk limit after the command */
  diskLimitHit?: boolean;
  /** the command could not be started (sandbox or limits could not be set up) */
  startError?: string;
}

/** A command that has not (yet) produced anything: the starting point of every result. */
export function emptyCommandResult(startError?: string): CommandResult {
  return {
    exitCode: null,
    signal: null,
    output: '',
    truncatedBytes: 0,
    timedOut: false,
    aborted: false,
    outputLimitHit: false,
    outOfMemory: false,
    processLimitHit: false,
    ...(startError !== undefined ? { startError } : {}),
  };
}

const SIGNALS: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  6: 'SIGABRT',
  9: 'SIGKILL',
  11: 'SIGSEGV',
  13: 'SIGPIPE',
  15: 'SIGTERM',
  24: 'SIGXCPU',
  25: 'SIGXFSZ',
};

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** A shell reports death by signal N as status 128+N (bubblewrap passes it on the same way). */
function statusLine(r: CommandResult): string | undefined {
  if (r.exitCode === 0) return undefined;
  if (r.exitCode === null) return `[killed by signal ${r.signal ?? 'unknown'}]`;
  const byName = r.exitCode > 128 ? SIGNALS[r.exitCode - 128] : undefined;
  return `[exit code ${r.exitCode}${byName ? ` (killed by ${byName})` : ''}]`;
}

export function describeCommandResult(
  r: CommandResult,
  limits: Pick<CommandLimits, 'timeoutMs' | 'outputBytes' | 'memoryBytes' | 'pids'> & Partial<Pick<CommandLimits, 'diskBytes'>>,
): { text: string; isError: boolean } {
  if (r.startError) return { text: `[command could not start: ${r.startError}]`, isError: true };
  const notes: string[] = [];
  if (r.outputLimitHit) notes.push(`[output exceeded ${limits.outputBytes} bytes: the rest was dropped and the command killed]`);
  else if (r.truncatedBytes) notes.push(`[... output truncated: ${r.truncatedBytes} more bytes]`);
  if (r.timedOut) notes.push(`[command timed out after ${limits.timeoutMs} ms and was killed]`);
  if (r.aborted) notes.push('[command aborted]');
  if (r.outOfMemory) notes.push(`[out of memory: a process exceeded the ${mb(limits.memoryBytes)} limit and was killed]`);
  if (r.processLimitHit) notes.push(`[process limit reached: at most ${limits.pids} processes, further forks failed]`);
  if (r.diskLimitHit)
    notes.push(
      `[disk limit: the workspace now holds more than ${mb(limits.diskBytes ?? 0)}; further commands are refused until files are removed]`,
    );
  const killed = r.outputLimitHit || r.timedOut || r.aborted;
  const status = killed ? undefined : statusLine(r);
  if (status) notes.push(status);
  const separator = r.output && notes.length && !r.output.endsWith('\n') ? '\n' : '';
  const text = `${r.output}${separator}${notes.join('\n')}`;
  return {
    text: text || '(no output)',
    isError: killed || r.outOfMemory || r.processLimitHit || !!r.diskLimitHit || r.exitCode !== 0,
  };
}
