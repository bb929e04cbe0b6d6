// The process Loupe spawns for a command: a tiny shell that puts itself into the call's cgroups
// and applies the rlimit fallback, then execs the sandbox (or, with the sandbox off, the command),
// so everything the command starts is inside the limits from its first instruction.

/** The launcher's own environment: nothing of Loupe's, since the sandbox's pid 1 inherits it. */
export const LAUNCHER_ENV: Readonly<Record<string, string>> = { PATH: '/usr/bin:/bin' };

/** Exit status of a launcher that could not set the limits up (the command never started). */
export const SETUP_FAILED_EXIT = 125;

export interface LauncherSpec {
  /** `cgroup.procs` files to join */
  cgroupProcs: string[];
  /** ulimit -v (KiB), per process */
  addressSpaceKb?: number;
  /** ulimit -t (CPU seconds), per process */
  cpuSeconds?: number;
  /** ulimit -f, per file a process writes (a larger write fails with SIGXFSZ / EFBIG) */
  fileBytes?: number;
  /** what to exec once inside the limits */
  exec: string[];
  /**
   * bash, where the host has it: it can close descriptors above 9 (dash cannot), so descriptors
   * Loupe inherited without close-on-exec do not reach the command
   */
  bash?: string;
  /** the descriptors to keep open: 0–2 and those bwrap reads its options and files from */
  keepFds?: number;
}

export function launcherArgv(spec: LauncherSpec): string[] {
  const fail = (what: string) => `{ echo 'sandbox setup failed: ${what}' >&2; exit ${SETUP_FAILED_EXIT}; }`;
  const lines = [
    ...(spec.bash ? [`for fd in /proc/$$/fd/*; do fd=\${fd##*/}; [ "$fd" -gt ${spec.keepFds ?? 2} ] && exec {fd}>&-; done`] : []),
    // paths are arguments, never spliced into the script; errors are ours, so no host path reaches the model
    `while [ "$1" != -- ]; do { echo $$ >"$1"; } 2>/dev/null || ${fail('cannot join the limits cgroup')}; shift; done; shift`,
    ...(spec.addressSpaceKb !== undefined
      ? [`ulimit -v ${Math.floor(spec.addressSpaceKb)} 2>/dev/null || ${fail('cannot set the memory rlimit')}`]
      : []),
    // soft limit: SIGXCPU (which names the cause); the hard one a second later SIGKILLs a process that ignores it
    // (soft first: a hard limit below the current soft one is refused)
    ...(spec.cpuSeconds !== undefined
      ? [
          `{ ulimit -St ${Math.floor(spec.cpuSeconds)} && ulimit -Ht ${Math.floor(spec.cpuSeconds) + 1}; } 2>/dev/null || ${fail('cannot set the CPU rlimit')}`,
        ]
      : []),
    // bash counts in 1024-byte blocks, a POSIX sh (dash, bash as sh) in 512-byte ones
    ...(spec.fileBytes !== undefined
      ? [
          `ulimit -f ${Math.max(1, Math.floor(spec.fileBytes / (spec.bash ? 1024 : 512)))} 2>/dev/null || ${fail('cannot set the file-size rlimit')}`,
        ]
      : []),
    'exec "$@"',
  ];
  return [spec.bash ?? '/bin/sh', '-c', lines.join('\n'), 'loupe-launcher', ...spec.cgroupProcs, '--', ...spec.exec];
}
