// The bubblewrap command line and the launcher script, built without touching the machine.
import {
  ARGS_FD,
  bwrapInvocation,
  bwrapOptions,
  identityFiles,
  SANDBOX_PATH,
  sandboxEnv,
  type BwrapSpec,
} from '../../src/tools/sandbox/bwrap-args';
import { LAUNCHER_ENV, launcherArgv, SETUP_FAILED_EXIT } from '../../src/tools/sandbox/launcher';

const spec: BwrapSpec = {
  workspace: '/srv/loupe/workspaces/s-1',
  layout: {
    system: [{ path: '/usr' }, { path: '/bin', symlinkTo: 'usr/bin' }, { path: '/lib', symlinkTo: 'usr/lib' }, { path: '/lib64' }],
    etc: ['/etc/ld.so.cache', '/etc/alternatives'],
  },
  uid: 1000,
  gid: 1000,
  tmpfsBytes: 1024,
};

/** The option that follows `flag` each time it appears, e.g. all `--ro-bind` sources. */
function pairs(args: string[], flag: string, width = 2): string[][] {
  return args.flatMap((a, i) => (a === flag ? [args.slice(i + 1, i + 1 + width)] : []));
}

describe('bubblewrap options', () => {
  const { options, files } = bwrapOptions(spec);

  it('unshares every namespace, dies with its parent, starts a new session and drops all capabilities', () => {
    expect(options.slice(0, 5)).toEqual(['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL']);
    expect(options).not.toContain('--share-net');
  });

  it('binds only the workspace writable, at /workspace, and starts there', () => {
    expect(pairs(options, '--bind')).toEqual([[spec.workspace, '/workspace']]);
    expect(pairs(options, '--chdir', 1)).toEqual([['/workspace']]);
    expect(options).not.toContain('--dev-bind');
  });

  it('binds system directories and the listed /etc entries read-only, and recreates merged-/usr links', () => {
    expect(pairs(options, '--ro-bind')).toEqual([
      ['/usr', '/usr'],
      ['/lib64', '/lib64'],
      ['/etc/ld.so.cache', '/etc/ld.so.cache'],
      ['/etc/alternatives', '/etc/alternatives'],
    ]);
    expect(pairs(options, '--symlink')).toEqual([
      ['usr/bin', '/bin'],
      ['usr/lib', '/lib'],
    ]);
    expect(options).not.toContain('/etc');
    expect(options).not.toContain('/');
  });

  it('mounts a fresh /proc, a minimal /dev and a private, sized /tmp', () => {
    expect(pairs(options, '--proc', 1)).toEqual([['/proc']]);
    expect(pairs(options, '--dev', 1)).toEqual([['/dev']]);
    const tmpfs = options.indexOf('--tmpfs');
    expect(options.slice(tmpfs - 2, tmpfs + 2)).toEqual(['--size', '1024', '--tmpfs', '/tmp']);
    expect(bwrapOptions({ ...spec, tmpfsBytes: undefined }).options).not.toContain('--size');
  });

  it('clears the environment and sets only a fixed, scrubbed one', () => {
    const clear = options.indexOf('--clearenv');
    expect(clear).toBeGreaterThan(0);
    const set = Object.fromEntries(pairs(options, '--setenv', 2));
    expect(set).toEqual(sandboxEnv(1000));
    expect(set).toEqual({
      PATH: SANDBOX_PATH,
      HOME: '/tmp',
      TMPDIR: '/tmp',
      USER: 'sandbox',
      LOGNAME: 'sandbox',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TERM: 'dumb',
    });
    expect(options.indexOf('--setenv')).toBeGreaterThan(clear);
  });

  it('supplies its own passwd, group and hosts through descriptors after the options one', () => {
    expect(pairs(options, '--ro-bind-data')).toEqual([
      [String(ARGS_FD + 1), '/etc/passwd'],
      [String(ARGS_FD + 2), '/etc/group'],
      [String(ARGS_FD + 3), '/etc/hosts'],
    ]);
    expect(files.map((f) => f.dest)).toEqual(['/etc/passwd', '/etc/group', '/etc/hosts']);
  });
});

describe('bubblewrap invocation', () => {
  it('keeps host paths off the command line: options travel through descriptor 3, NUL-separated', () => {
    const inv = bwrapInvocation('/usr/bin/bwrap', spec, 'ls -la');
    expect(inv.argv).toEqual(['/usr/bin/bwrap', '--args', '3', '--', '/bin/sh', '-c', 'ls -la']);
    expect(inv.argv.join(' ')).not.toContain(spec.workspace);
    expect(inv.fdData[0].split('\0').slice(0, -1)).toEqual(bwrapOptions(spec).options);
    expect(inv.fdData.slice(1)).toEqual(bwrapOptions(spec).files.map((f) => f.content));
  });
});

describe('sandbox identity files', () => {
  it.each([
    ['root', 0, 0, 'root:x:0:0:root:/tmp:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n', 'root:x:0:\nnogroup:x:65534:\n'],
    [
      'an unprivileged user',
      1000,
      1001,
      'root:x:0:0:root:/root:/bin/sh\nsandbox:x:1000:1001:sandbox:/tmp:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n',
      'root:x:0:\nsandbox:x:1001:\nnogroup:x:65534:\n',
    ],
    [
      'nobody itself',
      65534,
      65534,
      'root:x:0:0:root:/root:/bin/sh\nsandbox:x:65534:65534:sandbox:/tmp:/bin/sh\n',
      'root:x:0:\nsandbox:x:65534:\n',
    ],
  ])('names only the sandbox user for %s, never the host accounts', (_who, uid, gid, passwd, group) => {
    expect(identityFiles(uid, gid)).toEqual({ passwd, group });
  });
});

describe('launcher', () => {
  it('joins each cgroup before exec, taking paths as arguments rather than script text', () => {
    const argv = launcherArgv({
      cgroupProcs: ['/sys/fs/cgroup/memory/x/cgroup.procs', '/sys/fs/cgroup/pids/x/cgroup.procs'],
      exec: ['bwrap', '--args', '3'],
    });
    expect(argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(argv.slice(3)).toEqual([
      'loupe-launcher',
      '/sys/fs/cgroup/memory/x/cgroup.procs',
      '/sys/fs/cgroup/pids/x/cgroup.procs',
      '--',
      'bwrap',
      '--args',
      '3',
    ]);
    expect(argv[2]).not.toContain('/sys/fs/cgroup');
    expect(argv[2]).toMatch(/echo \$\$ >"\$1"/);
    expect(argv[2].trim().split('\n').pop()).toBe('exec "$@"');
    expect(argv[2]).not.toContain('ulimit');
  });

  it.each([
    [{ addressSpaceKb: 524288 }, ['ulimit -v 524288'], ['ulimit -St', 'ulimit -Ht']],
    [{ cpuSeconds: 15 }, ['ulimit -St 15 && ulimit -Ht 16'], ['ulimit -v']],
    [{ addressSpaceKb: 1024, cpuSeconds: 2 }, ['ulimit -v 1024', 'ulimit -St 2 && ulimit -Ht 3'], []],
  ])('applies the rlimit fallback %j before exec', (rlimits, present, absent) => {
    const script = launcherArgv({ cgroupProcs: [], exec: ['true'], ...rlimits })[2];
    for (const p of present) expect(script).toContain(p);
    for (const a of absent) expect(script).not.toContain(a);
    expect(script.indexOf('exec "$@"')).toBeGreaterThan(script.lastIndexOf('ulimit'));
  });

  it('with bash, closes every inherited descriptor above those bwrap reads, before anything else', () => {
    const argv = launcherArgv({ cgroupProcs: [], exec: ['true'], bash: '/bin/bash', keepFds: 6 });
    expect(argv[0]).toBe('/bin/bash');
    expect(argv[2].split('\n')[0]).toBe('for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 6 ] && exec {fd}>&-; done');
    const sh = launcherArgv({ cgroupProcs: [], exec: ['true'], keepFds: 6 });
    expect(sh[0]).toBe('/bin/sh');
    expect(sh[2]).not.toContain('exec {fd}');
  });

  it('fails with its own status and a message that names no host path when setup fails', () => {
    const script = launcherArgv({ cgroupProcs: ['/x'], exec: ['true'], cpuSeconds: 1 })[2];
    expect(script).toContain(`exit ${SETUP_FAILED_EXIT}`);
    expect(script).toContain("echo 'sandbox setup failed: cannot join the limits cgroup' >&2");
  });

  it("runs with nothing of the caller's environment", () => {
    expect(LAUNCHER_ENV).toEqual({ PATH: '/usr/bin:/bin' });
  });
});
