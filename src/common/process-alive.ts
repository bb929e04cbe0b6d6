import * as fs from 'node:fs';

/**
 * Whether a process with this pid runs (EPERM: it does, but belongs to another user). A zombie — dead,
 * not yet reaped, as a killed daemon stays where nothing reaps orphans — does not count.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return procStatField(pid, 0) !== 'Z';
}

/** A field of /proc/<pid>/stat after "(comm)" (0 = state); undefined off Linux or when gone. */
function procStatField(pid: number, index: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ..." — comm may contain spaces and parentheses: split after the last ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[index];
  } catch {
    return undefined;
  }
}

/**
 * The kernel's start time of a process (clock ticks since boot, /proc/<pid>/stat field 22), so a
 * recorded pid can be told apart from a later process that reuses it. undefined off Linux.
 */
export function processStartTime(pid: number): number | undefined {
  const field = procStatField(pid, 19);
  return field === undefined ? undefined : Number(field);
}

/** Whether the process that wrote (pid, startTime) is still the one running under that pid. */
export function sameProcessAlive(pid: number, startTime: number | undefined): boolean {
  if (!processAlive(pid)) return false;
  if (startTime === undefined) return true;
  const now = processStartTime(pid);
  return now === undefined || now === startTime;
}
