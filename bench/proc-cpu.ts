// CPU time of a process, read from /proc/<pid>/stat: the benches print it beside wall time, the
// figure that holds still on a shared machine. Linux only; elsewhere (or once the process is gone)
// the readers answer null.
import * as fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces), from `state` on. */
export function procStatFields(pid: number | string): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** User + system CPU of a process so far, in ms (utime + stime). */
export function procCpuMs(pid: number | undefined): number | null {
  const f = pid === undefined ? null : procStatFields(pid);
  return f ? ((Number(f[11]) + Number(f[12])) * 1_000) / TICKS_PER_SECOND : null;
}

/** CPU of a process's reaped children, in ms (cutime + cstime). */
export function procChildrenCpuMs(fields: string[]): number {
  return ((Number(fields[13]) + Number(fields[14])) * 1_000) / TICKS_PER_SECOND;
}

/** utime + stime from already-read fields, in ms. */
export function statCpuMs(fields: string[]): number {
  return ((Number(fields[11]) + Number(fields[12])) * 1_000) / TICKS_PER_SECOND;
}
