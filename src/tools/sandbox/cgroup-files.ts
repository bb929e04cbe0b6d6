// What the cgroup files say and what to write into them: pure text in, text out, so the cgroup
// handling can be tested without a cgroup file system.
import type { CommandLimits } from './command-limits';

export const CGROUP_CONTROLLERS = ['memory', 'cpu', 'pids'] as const;
export type CgroupController = (typeof CGROUP_CONTROLLERS)[number];
export type CgroupVersion = 1 | 2;

/** The period the CPU quota is expressed in (the kernel's default, 100 ms). */
export const CPU_PERIOD_US = 100_000;

/**
 * `/proc/self/cgroup`: v1 lines are `id:controller[,controller]:/path`, the v2 line `0::/path`.
 * Returns this process's path in each v1 hierarchy by controller name, and its v2 path.
 */
export function parseProcCgroup(text: string): { v1: Partial<Record<string, string>>; v2?: string } {
  const v1: Partial<Record<string, string>> = {};
  let v2: string | undefined;
  for (const line of text.split('\n')) {
    const m = /^(\d+):([^:]*):(.*)$/.exec(line.trim());
    if (!m) continue;
    if (m[1] === '0' && m[2] === '') v2 = m[3];
    else for (const c of m[2].split(',')) if (c) v1[c] = m[3];
  }
  return { v1, v2 };
}

export interface CgroupWrite {
  file: string;
  value: string;
  /** absent on some kernels (swap accounting off): skipped when missing, not an error */
  optional?: boolean;
}

/** The files that set one controller's limit, in the order they must be written. */
export function cgroupLimitWrites(version: CgroupVersion, controller: CgroupController, limits: CommandLimits): CgroupWrite[] {
  const quota = String(Math.max(1_000, Math.round(limits.cpu * CPU_PERIOD_US)));
  if (version === 1) {
    switch (controller) {
      // memsw (memory + swap) after memory: the kernel refuses memsw below the memory limit
      case 'memory':
        return [
          { file: 'memory.limit_in_bytes', value: String(limits.memoryBytes) },
          { file: 'memory.memsw.limit_in_bytes', value: String(limits.memoryBytes), optional: true },
        ];
      case 'cpu':
        return [
          { file: 'cpu.cfs_period_us', value: String(CPU_PERIOD_US) },
          { file: 'cpu.cfs_quota_us', value: quota },
        ];
      case 'pids':
        return [{ file: 'pids.max', value: String(limits.pids) }];
    }
  }
  switch (controller) {
    case 'memory':
      return [
        { file: 'memory.max', value: String(limits.memoryBytes) },
        { file: 'memory.swap.max', value: '0', optional: true },
      ];
    case 'cpu':
      return [{ file: 'cpu.max', value: `${quota} ${CPU_PERIOD_US}` }];
    case 'pids':
      return [{ file: 'pids.max', value: String(limits.pids) }];
  }
}

/** A file whose presence in a new cgroup shows the controller is usable there. */
export function limitFileOf(version: CgroupVersion, controller: CgroupController): string {
  return cgroupLimitWrites(version, controller, { memoryBytes: 1, cpu: 1, pids: 1, outputBytes: 1, timeoutMs: 1, diskBytes: 1 })[0].file;
}

/** Where the kernel counts OOM kills: v1 memory.oom_control, v2 memory.events (`oom_kill N`). */
export function oomEventsFile(version: CgroupVersion): string {
  return version === 1 ? 'memory.oom_control' : 'memory.events';
}

export function parseOomKills(text: string): number {
  const m = /^oom_kill\s+(\d+)\s*$/m.exec(text);
  return m ? Number(m[1]) : 0;
}

/** `pids.events` (v1 and v2): `max N`, how many forks the pids limit refused. */
export function parsePidsLimitHits(text: string): number {
  const m = /^max\s+(\d+)\s*$/m.exec(text);
  return m ? Number(m[1]) : 0;
}

/** `cgroup.procs`: one pid a line. */
export function parsePids(text: string): number[] {
  return text
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}

/** A v2 `cgroup.subtree_control` or `cgroup.controllers` file: space-separated names. */
export function parseControllerList(text: string): Set<string> {
  return new Set(text.split(/\s+/).filter(Boolean));
}
