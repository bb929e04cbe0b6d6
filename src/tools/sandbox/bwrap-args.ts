// The bubblewrap command line for one command: every namespace unshared, the host's system
// directories read-only, only the session workspace writable (at /workspace, so no host path shows
// in what the command prints), a private /tmp, a fresh /proc, a minimal /dev, no capabilities and
// an environment built from nothing. Pure: the host layout is looked up by the probe.

export const SANDBOX_WORKSPACE = '/workspace';
export const SANDBOX_HOME = '/tmp';
export const SANDBOX_PATH = '/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin';
export const SANDBOX_HOSTNAME = 'sandbox';

/** Top-level system paths: a symlink on the host (merged /usr) is recreated, a directory bound read-only. */
export const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

/** The few /etc entries a shell and common tools need (the dynamic linker, Debian's alternatives, time zone). */
export const ETC_PATHS = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/localtime',
  '/etc/nsswitch.conf',
] as const;

export interface HostLayout {
  /** system paths that exist on the host; `symlinkTo` for those that are links */
  system: Array<{ path: string; symlinkTo?: string }>;
  /** the ETC_PATHS that exist on the host */
  etc: string[];
}

export interface BwrapSpec {
  /** the workspace's real host path */
  workspace: string;
  layout: HostLayout;
  uid: number;
  gid: number;
  /** size of the private /tmp; only where this bwrap has `--size` (0.7+) */
  tmpfsBytes?: number;
}

/**
 * The options go to bwrap through a file descriptor (`--args 3`), not its command line: the
 * sandbox's pid 1 is a fork of bwrap, and its /proc/1/cmdline would otherwise show host paths.
 * Generated files (passwd, group, hosts) come through further descriptors, from 4 on.
 */
export const ARGS_FD = 3;

export interface BwrapInvocation {
  /** bwrap's command line: only `--args 3` and the command */
  argv: string[];
  /** what to write to descriptors 3, 4, …, in that order */
  fdData: string[];
}

export function sandboxEnv(uid: number): Record<string, string> {
  return {
    PATH: SANDBOX_PATH,
    HOME: SANDBOX_HOME,
    TMPDIR: SANDBOX_HOME,
    USER: userName(uid),
    LOGNAME: userName(uid),
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'dumb',
  };
}

const NOBODY = 65534;
const userName = (uid: number) => (uid === 0 ? 'root' : 'sandbox');

/** A passwd and group naming only the sandbox's user, instead of the host's accounts. */
export function identityFiles(uid: number, gid: number): { passwd: string; group: string } {
  const name = userName(uid);
  const passwd = [`${name}:x:${uid}:${gid}:${name}:${SANDBOX_HOME}:/bin/sh`];
  const group = [`${name}:x:${gid}:`];
  if (uid !== 0) passwd.unshift('root:x:0:0:root:/root:/bin/sh');
  if (gid !== 0) group.unshift('root:x:0:');
  if (uid !== NOBODY) passwd.push(`nobody:x:${NOBODY}:${NOBODY}:nobody:/nonexistent:/bin/false`);
  if (gid !== NOBODY) group.push(`nogroup:x:${NOBODY}:`);
  return { passwd: `${passwd.join('\n')}\n`, group: `${group.join('\n')}\n` };
}

export const SANDBOX_HOSTS = '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n';

export function bwrapOptions(spec: BwrapSpec): { options: string[]; files: Array<{ dest: string; content: string }> } {
  const { passwd, group } = identityFiles(spec.uid, spec.gid);
  const files = [
    { dest: '/etc/passwd', content: passwd },
    { dest: '/etc/group', content: group },
    { dest: '/etc/hosts', content: SANDBOX_HOSTS },
  ];
  const options = [
    // pid, mount, net (only an isolated loopback), ipc, uts, and user/cgroup where the kernel allows
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    ...spec.layout.system.flatMap((s) => (s.symlinkTo !== undefined ? ['--symlink', s.symlinkTo, s.path] : ['--ro-bind', s.path, s.path])),
    ...spec.layout.etc.flatMap((p) => ['--ro-bind', p, p]),
    ...files.flatMap((f, i) => ['--ro-bind-data', String(ARGS_FD + 1 + i), f.dest]),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...(spec.tmpfsBytes ? ['--size', String(spec.tmpfsBytes)] : []),
    '--tmpfs',
    SANDBOX_HOME,
    '--bind',
    spec.workspace,
    SANDBOX_WORKSPACE,
    '--chdir',
    SANDBOX_WORKSPACE,
    '--hostname',
    SANDBOX_HOSTNAME,
    '--clearenv',
    ...Object.entries(sandboxEnv(spec.uid)).flatMap(([k, v]) => ['--setenv', k, v]),
  ];
  return { options, files };
}

export function bwrapInvocation(bwrap: string, spec: BwrapSpec, command: string): BwrapInvocation {
  const { options, files } = bwrapOptions(spec);
  return {
    argv: [bwrap, '--args', String(ARGS_FD), '--', '/bin/sh', '-c', command],
    fdData: [options.map((a) => `${a}\0`).join(''), ...files.map((f) => f.content)],
  };
}
