// Can this machine sandbox a command? bubblewrap must be installed AND able to create its
// namespaces here (unprivileged user namespaces can be off, a container can forbid them), so it
// is tried once with the real options on `true`; cgroups must be writable for the limits. The
// answer is cached for the process: it does not change while Loupe runs.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bwrapInvocation, ETC_PATHS, SYSTEM_PATHS, type HostLayout } from './bwrap-args';
import { detectCgroups, type CgroupSupport } from './cgroup-limits';
import { runLaunched } from './command-runner';
import { LAUNCHER_ENV, launcherArgv } from './launcher';

export type BubblewrapStatus =
  | { usable: true; path: string; version: string; /** `--size` for the private /tmp (bubblewrap 0.7+) */ tmpfsSize: boolean }
  | { usable: false; reason: string };

export interface SandboxProbe {
  bubblewrap: BubblewrapStatus;
  cgroups: CgroupSupport;
  layout: HostLayout;
  /** the host's bash, for the launcher (see launcher.ts: closing inherited descriptors) */
  bash?: string;
}

export type SandboxProber = () => Promise<SandboxProbe>;

const PROBE_TIMEOUT_MS = 10_000;

export function hostLayout(): HostLayout {
  const system: HostLayout['system'] = [];
  for (const p of SYSTEM_PATHS) {
    try {
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink()) system.push({ path: p, symlinkTo: fs.readlinkSync(p) });
      else if (st.isDirectory()) system.push({ path: p });
    } catch {
      // not on this distribution
    }
  }
  return { system, etc: ETC_PATHS.filter((p) => fs.existsSync(p)) };
}

function findExecutable(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of [...searchPath.split(':').filter(Boolean), '/usr/bin', '/bin', '/usr/local/bin']) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function captureStdout(file: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: { ...LAUNCHER_ENV }, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.on('error', () => resolve(''));
    child.on('close', () => resolve(out));
  });
}

function hostBash(): string | undefined {
  return ['/bin/bash', '/usr/bin/bash'].find((p) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

async function probeBubblewrap(layout: HostLayout, bash: string | undefined): Promise<BubblewrapStatus> {
  if (process.platform !== 'linux') return { usable: false, reason: `bubblewrap sandboxes need Linux (this is ${process.platform})` };
  const bwrap = findExecutable('bwrap');
  if (!bwrap) return { usable: false, reason: 'bubblewrap (bwrap) is not installed' };
  const version = (await captureStdout(bwrap, ['--version'])).trim() || 'unknown version';
  const tmpfsSize = (await captureStdout(bwrap, ['--help'])).includes('--size');
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sandbox-probe-'));
  try {
    const inv = bwrapInvocation(
      bwrap,
      {
        workspace,
        layout,
        uid: process.getuid?.() ?? 0,
        gid: process.getgid?.() ?? 0,
        tmpfsBytes: tmpfsSize ? 1024 * 1024 : undefined,
      },
      'exit 0',
    );
    const r = await runLaunched({
      argv: launcherArgv({ cgroupProcs: [], exec: inv.argv, bash, keepFds: 2 + inv.fdData.length }),
      cwd: '/',
      env: { ...LAUNCHER_ENV },
      fdData: inv.fdData,
      limits: { timeoutMs: PROBE_TIMEOUT_MS, outputBytes: 4_000 },
    });
    if (r.exitCode === 0) return { usable: true, path: bwrap, version, tmpfsSize };
    const why = r.startError ?? (r.timedOut ? 'timed out' : r.output.trim().split('\n').pop() || `exit code ${r.exitCode ?? r.signal}`);
    return { usable: false, reason: `${version} is installed but cannot create its sandbox here: ${why}` };
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

async function runProbe(): Promise<SandboxProbe> {
  const layout = hostLayout();
  const bash = hostBash();
  return { bubblewrap: await probeBubblewrap(layout, bash), cgroups: detectCgroups(), layout, bash };
}

let cached: Promise<SandboxProbe> | undefined;

/** The machine's sandbox support, probed on first use and then remembered. */
export const probeSandbox: SandboxProber = () => (cached ??= runProbe());
