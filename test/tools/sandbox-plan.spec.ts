// The session's sandbox decided from its mode and what the machine can do: never a silent downgrade.
import { DEFAULT_COMMAND_LIMITS } from '../../src/tools/sandbox/command-limits';
import { enforcementFor, planCommandSandbox, refusalText, type CommandSandboxMode } from '../../src/tools/sandbox/sandbox-plan';
import type { SandboxProbe } from '../../src/tools/sandbox/sandbox-probe';
import { SANDBOX_EVENTS } from '../../src/journal/events/sandbox-events';

const limits = { ...DEFAULT_COMMAND_LIMITS };
const layout = { system: [{ path: '/usr' }], etc: [] };
const v1 = { version: 1 as const, parents: { memory: '/m', cpu: '/c', pids: '/p' } };
const noCgroups = { version: null, parents: {}, reason: 'memory: cannot create a cgroup (EACCES)' };
const bwrap = { usable: true as const, path: '/usr/bin/bwrap', version: 'bubblewrap 0.8.0', tmpfsSize: true };
const noBwrap = { usable: false as const, reason: 'bubblewrap (bwrap) is not installed' };
const probe = (b: SandboxProbe['bubblewrap'], cgroups: SandboxProbe['cgroups']): SandboxProbe => ({ bubblewrap: b, cgroups, layout });

describe('planCommandSandbox', () => {
  it.each<[CommandSandboxMode, SandboxProbe, string, string]>([
    ['auto', probe(bwrap, v1), 'bubblewrap', 'bubblewrap'],
    ['bubblewrap', probe(bwrap, v1), 'bubblewrap', 'bubblewrap'],
    ['auto', probe(noBwrap, v1), 'refuse', 'unavailable'],
    ['bubblewrap', probe(noBwrap, noCgroups), 'refuse', 'unavailable'],
    ['none', probe(noBwrap, v1), 'none', 'none'],
    ['none', probe(bwrap, v1), 'none', 'none'],
  ])('mode %s on %j runs as %s (recorded as %s)', (mode, p, run, recorded) => {
    const plan = planCommandSandbox(mode, p, limits);
    expect(plan.run).toBe(run);
    expect(plan.record.mode).toBe(recorded);
    expect(() => SANDBOX_EVENTS.command_sandbox.payload.parse(plan.record)).not.toThrow();
  });

  it('refuses with a reason the model can read and the way to opt out', () => {
    const plan = planCommandSandbox('auto', probe(noBwrap, v1), limits);
    expect(plan).toEqual(expect.objectContaining({ run: 'refuse', refusal: refusalText('bubblewrap (bwrap) is not installed') }));
    expect(refusalText('x')).toMatch(
      /^Refused: commands run only inside a sandbox, and none is available here \(x\)\. Nothing was run\..*`sandbox: none`/,
    );
    expect(plan.record.reason).toBe('bubblewrap (bwrap) is not installed');
  });

  it('records the limits and what enforces each, noting why cgroups were not used', () => {
    expect(planCommandSandbox('bubblewrap', probe(bwrap, v1), limits).record).toEqual({
      mode: 'bubblewrap',
      limits: {
        ...limits,
        enforcedBy: {
          memory: 'cgroup-v1',
          cpu: 'cgroup-v1',
          pids: 'cgroup-v1',
          output: 'loupe',
          timeout: 'loupe',
          processTree: 'pid-namespace',
        },
      },
    });
    const fallback = planCommandSandbox('bubblewrap', probe(bwrap, noCgroups), limits);
    expect(fallback.record.limits.enforcedBy).toEqual({
      memory: 'rlimit-as',
      cpu: 'rlimit-cpu',
      pids: 'none',
      output: 'loupe',
      timeout: 'loupe',
      processTree: 'pid-namespace',
    });
    expect(fallback.record.limitsNote).toBe('cgroups: memory: cannot create a cgroup (EACCES)');
    expect(fallback.rlimits).toEqual({ memory: true, cpu: true });
  });
});

describe('enforcementFor', () => {
  it.each([
    [
      'all v2 controllers, sandboxed',
      { version: 2 as const, parents: { memory: '/a', cpu: '/a', pids: '/a' } },
      true,
      { memory: 'cgroup-v2', cpu: 'cgroup-v2', pids: 'cgroup-v2', processTree: 'pid-namespace' },
    ],
    [
      'only a pids controller, unsandboxed',
      { version: 1 as const, parents: { pids: '/p' } },
      false,
      { memory: 'rlimit-as', cpu: 'rlimit-cpu', pids: 'cgroup-v1', processTree: 'cgroup' },
    ],
    ['no cgroups, unsandboxed', noCgroups, false, { memory: 'rlimit-as', cpu: 'rlimit-cpu', pids: 'none', processTree: 'process-group' }],
  ])('%s', (_case, cgroups, sandboxed, expected) => {
    expect(enforcementFor(cgroups, sandboxed)).toEqual({ ...expected, output: 'loupe', timeout: 'loupe' });
  });
});
