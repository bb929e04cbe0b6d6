// The limits every command runs under (mcp-agent-technical-spec.md §6: 512 MB memory, 0.5 CPU,
// 30 s) plus a process count and an output cap, and how each is enforced on this machine.

export interface CommandLimits {
  memoryBytes: number;
  /** CPUs' worth of time per wall-clock second (0.5 = half of one core) */
  cpu: number;
  /** processes and threads alive at once */
  pids: number;
  /** output kept for the model; more than this kills the command */
  outputBytes: number;
  timeoutMs: number;
  /**
   * disk a command may fill: the size of each file it writes (RLIMIT_FSIZE, kernel), the sandbox's
   * private /tmp (tmpfs size, kernel) and the workspace in all (Loupe measures it after each
   * command and refuses further ones while it is above; one command can overshoot by what it writes
   * in files below the per-file cap before its time runs out)
   */
  diskBytes: number;
}

export const DEFAULT_COMMAND_LIMITS: Readonly<CommandLimits> = {
  memoryBytes: 512 * 1024 * 1024,
  cpu: 0.5,
  pids: 64,
  outputBytes: 64_000,
  timeoutMs: 30_000,
  diskBytes: 256 * 1024 * 1024,
};

/** What enforces each limit here: a cgroup, an rlimit (per process), Loupe itself, or nothing. */
export interface LimitEnforcement {
  memory: 'cgroup-v1' | 'cgroup-v2' | 'rlimit-as' | 'none';
  cpu: 'cgroup-v1' | 'cgroup-v2' | 'rlimit-cpu' | 'none';
  pids: 'cgroup-v1' | 'cgroup-v2' | 'none';
  output: 'loupe';
  timeout: 'loupe';
  /** how the whole process tree is ended: the sandbox's PID namespace, the cgroup, or only the process group */
  processTree: 'pid-namespace' | 'cgroup' | 'process-group';
}

/** Defaults filled in; a value that is not a positive finite number is refused, not silently replaced. */
export function resolveCommandLimits(partial: Partial<CommandLimits> = {}): CommandLimits {
  const limits = { ...DEFAULT_COMMAND_LIMITS };
  for (const key of Object.keys(DEFAULT_COMMAND_LIMITS) as Array<keyof CommandLimits>) {
    const v = partial[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
      throw new Error(`command limit ${key} must be a positive number, got ${String(v)}`);
    limits[key] = key === 'cpu' ? v : Math.floor(v);
  }
  return limits;
}

/**
 * The rlimit fallback where no cgroup can be used. RLIMIT_AS bounds each process's address space
 * (not the tree's total); RLIMIT_CPU bounds each process's CPU seconds to what `cpu` would allow
 * over the whole timeout (the rate itself cannot be limited without a cgroup).
 */
export function rlimitsFor(
  limits: CommandLimits,
  use: { memory: boolean; cpu: boolean },
): { addressSpaceKb?: number; cpuSeconds?: number; fileBytes: number } {
  return {
    addressSpaceKb: use.memory ? Math.ceil(limits.memoryBytes / 1024) : undefined,
    cpuSeconds: use.cpu ? Math.max(1, Math.ceil((limits.timeoutMs / 1000) * limits.cpu)) : undefined,
    // no cgroup bounds file sizes: always the rlimit
    fileBytes: limits.diskBytes,
  };
}
