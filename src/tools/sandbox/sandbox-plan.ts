// How a session's commands will run, decided once when its tools are assembled: the session's
// sandbox mode against what the machine can do. `auto` and `bubblewrap` never quietly degrade to
// an unsandboxed shell: without a usable bubblewrap the command tool refuses, and says how to opt out.
import type { CgroupSupport } from './cgroup-limits';
import type { CgroupController } from './cgroup-files';
import type { CommandLimits, LimitEnforcement } from './command-limits';
import type { BubblewrapStatus, SandboxProbe } from './sandbox-probe';
import type { HostLayout } from './bwrap-args';

export type CommandSandboxMode = 'auto' | 'bubblewrap' | 'none';

/** What the session records (journal event `command_sandbox`). */
export interface CommandSandboxRecord {
  /** `unavailable`: the session asked for a sandbox the machine cannot provide; the command tool refuses */
  mode: 'bubblewrap' | 'none' | 'unavailable';
  reason?: string;
  limits: CommandLimits & { enforcedBy: LimitEnforcement };
  /** why a limit falls back from a cgroup to an rlimit or nothing */
  limitsNote?: string;
}

interface PlanBase {
  limits: CommandLimits;
  cgroups: CgroupSupport;
  /** the limits the rlimit fallback applies (those no cgroup controller covers) */
  rlimits: { memory: boolean; cpu: boolean };
  /** the launcher's shell when it can close inherited descriptors */
  bash?: string;
  record: CommandSandboxRecord;
}

export type CommandPlan =
  | (PlanBase & { run: 'bubblewrap'; bubblewrap: Extract<BubblewrapStatus, { usable: true }>; layout: HostLayout })
  | (PlanBase & { run: 'none' })
  | (PlanBase & { run: 'refuse'; refusal: string });

function cgroupEnforcer(cgroups: CgroupSupport, c: CgroupController): 'cgroup-v1' | 'cgroup-v2' | undefined {
  return cgroups.version && cgroups.parents[c] ? `cgroup-v${cgroups.version}` : undefined;
}

export function enforcementFor(cgroups: CgroupSupport, sandboxed: boolean): LimitEnforcement {
  const anyCgroup = Object.keys(cgroups.parents).length > 0 && cgroups.version !== null;
  return {
    memory: cgroupEnforcer(cgroups, 'memory') ?? 'rlimit-as',
    cpu: cgroupEnforcer(cgroups, 'cpu') ?? 'rlimit-cpu',
    // RLIMIT_NPROC counts all of a user's processes (and not root's), so it is no per-command limit
    pids: cgroupEnforcer(cgroups, 'pids') ?? 'none',
    output: 'loupe',
    timeout: 'loupe',
    processTree: sandboxed ? 'pid-namespace' : anyCgroup ? 'cgroup' : 'process-group',
  };
}

export function refusalText(reason: string): string {
  return (
    `Refused: commands run only inside a sandbox, and none is available here (${reason}). ` +
    'Nothing was run. A session that accepts unsandboxed commands can opt out with `sandbox: none` (scenario config `command_sandbox: none`).'
  );
}

export function planCommandSandbox(mode: CommandSandboxMode, probe: SandboxProbe, limits: CommandLimits): CommandPlan {
  const enforcedBy = enforcementFor(probe.cgroups, mode !== 'none');
  const base = {
    limits,
    cgroups: probe.cgroups,
    rlimits: { memory: enforcedBy.memory === 'rlimit-as', cpu: enforcedBy.cpu === 'rlimit-cpu' },
    bash: probe.bash,
  };
  const recordLimits = { ...limits, enforcedBy };
  const fallback = [enforcedBy.memory, enforcedBy.cpu, enforcedBy.pids].some((e) => !e.startsWith('cgroup'));
  const note = fallback && probe.cgroups.reason ? { limitsNote: `cgroups: ${probe.cgroups.reason}` } : {};
  if (mode === 'none') {
    return {
      ...base,
      run: 'none',
      record: { mode: 'none', reason: 'the session opted out of the sandbox (sandbox: none)', limits: recordLimits, ...note },
    };
  }
  if (!probe.bubblewrap.usable) {
    const reason = probe.bubblewrap.reason;
    return { ...base, run: 'refuse', refusal: refusalText(reason), record: { mode: 'unavailable', reason, limits: recordLimits, ...note } };
  }
  return {
    ...base,
    run: 'bubblewrap',
    bubblewrap: probe.bubblewrap,
    layout: probe.layout,
    record: { mode: 'bubblewrap', limits: recordLimits, ...note },
  };
}
