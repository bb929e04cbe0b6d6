// Command limits, what the cgroup files say and what goes into them: pure text, no cgroup needed.
import {
  cgroupLimitWrites,
  limitFileOf,
  oomEventsFile,
  parseControllerList,
  parseOomKills,
  parsePids,
  parsePidsLimitHits,
  parseProcCgroup,
} from '../../src/tools/sandbox/cgroup-files';
import { DEFAULT_COMMAND_LIMITS, resolveCommandLimits, rlimitsFor } from '../../src/tools/sandbox/command-limits';

const limits = { ...DEFAULT_COMMAND_LIMITS };

describe('command limits', () => {
  it('defaults to the spec: 512 MB, 0.5 CPU, 30 s, plus 64 processes, 64 KB of output and 256 MB of disk', () => {
    expect(resolveCommandLimits()).toEqual({
      memoryBytes: 536_870_912,
      cpu: 0.5,
      pids: 64,
      outputBytes: 64_000,
      timeoutMs: 30_000,
      diskBytes: 268_435_456,
    });
  });

  it('takes overrides and keeps the rest', () => {
    expect(resolveCommandLimits({ timeoutMs: 1_500.7, cpu: 1.5 })).toEqual({ ...limits, timeoutMs: 1_500, cpu: 1.5 });
    expect(resolveCommandLimits({ timeoutMs: undefined })).toEqual(limits);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses %p rather than running without a limit', (bad) => {
    expect(() => resolveCommandLimits({ memoryBytes: bad })).toThrow(/memoryBytes must be a positive number/);
  });

  it.each([
    [{ memory: true, cpu: true }, limits, { addressSpaceKb: 524_288, cpuSeconds: 15, fileBytes: 268_435_456 }],
    [
      { memory: false, cpu: true },
      { ...limits, timeoutMs: 1_000 },
      { addressSpaceKb: undefined, cpuSeconds: 1, fileBytes: 268_435_456 },
    ],
    [
      { memory: true, cpu: false },
      { ...limits, memoryBytes: 1_000 },
      { addressSpaceKb: 1, cpuSeconds: undefined, fileBytes: 268_435_456 },
    ],
  ])(
    'rlimit fallback for %j: address space in KiB, CPU seconds = cpu × timeout (at least 1), file size = the disk limit',
    (use, l, expected) => {
      expect(rlimitsFor(l, use)).toEqual(expected);
    },
  );
});

describe('cgroup files', () => {
  it("reads this process's v1 paths (co-mounted controllers included) and its v2 path", () => {
    const text = '12:pids:/\n4:memory:/process_api/abc\n2:cpu,cpuacct:/user.slice\n1:name=systemd:/\n0::/init.scope\n';
    expect(parseProcCgroup(text)).toEqual({
      v1: { pids: '/', memory: '/process_api/abc', cpu: '/user.slice', cpuacct: '/user.slice', 'name=systemd': '/' },
      v2: '/init.scope',
    });
    expect(parseProcCgroup('0::/user.slice/app.scope\n')).toEqual({ v1: {}, v2: '/user.slice/app.scope' });
  });

  it.each([
    [
      1,
      'memory',
      [
        ['memory.limit_in_bytes', '536870912', undefined],
        ['memory.memsw.limit_in_bytes', '536870912', true],
      ],
    ],
    [
      1,
      'cpu',
      [
        ['cpu.cfs_period_us', '100000', undefined],
        ['cpu.cfs_quota_us', '50000', undefined],
      ],
    ],
    [1, 'pids', [['pids.max', '64', undefined]]],
    [
      2,
      'memory',
      [
        ['memory.max', '536870912', undefined],
        ['memory.swap.max', '0', true],
      ],
    ],
    [2, 'cpu', [['cpu.max', '50000 100000', undefined]]],
    [2, 'pids', [['pids.max', '64', undefined]]],
  ] as const)('v%d %s limit is written as %j', (version, controller, expected) => {
    expect(cgroupLimitWrites(version, controller, limits).map((w) => [w.file, w.value, w.optional])).toEqual(expected);
  });

  it('never writes a CPU quota below the kernel minimum', () => {
    expect(cgroupLimitWrites(2, 'cpu', { ...limits, cpu: 0.001 })).toEqual([{ file: 'cpu.max', value: '1000 100000' }]);
  });

  it('names the file that proves a controller is usable, and where OOM kills are counted', () => {
    expect([limitFileOf(1, 'memory'), limitFileOf(1, 'cpu'), limitFileOf(2, 'cpu'), limitFileOf(2, 'pids')]).toEqual([
      'memory.limit_in_bytes',
      'cpu.cfs_period_us',
      'cpu.max',
      'pids.max',
    ]);
    expect([oomEventsFile(1), oomEventsFile(2)]).toEqual(['memory.oom_control', 'memory.events']);
  });

  it.each([
    ['oom_kill_disable 0\nunder_oom 0\noom_kill 3\n', 3],
    ['low 0\nhigh 0\nmax 2\noom 1\noom_kill 1\noom_group_kill 0\n', 1],
    ['oom_kill_disable 0\nunder_oom 0\n', 0],
  ])('counts OOM kills in %j', (text, n) => {
    expect(parseOomKills(text)).toBe(n);
  });

  it('counts forks refused by pids.max, lists pids and controller names', () => {
    expect(parsePidsLimitHits('max 1813\n')).toBe(1813);
    expect(parsePidsLimitHits('')).toBe(0);
    expect(parsePids('12\n345\n\n')).toEqual([12, 345]);
    expect([...parseControllerList('cpuset cpu io memory pids\n')]).toEqual(['cpuset', 'cpu', 'io', 'memory', 'pids']);
  });
});
