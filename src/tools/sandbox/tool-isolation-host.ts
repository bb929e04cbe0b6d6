// Where the light wrapper of tool-isolation.ts is applied: the paths this Loupe process protects
// (registered once its config is known), whether this machine's bubblewrap can run the wrapper
// (tried once, synchronously: callers such as the SDK's stdio transport are built synchronously),
// and the command line, environment and warning for one tool process.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { LAUNCHER_ENV } from './launcher';
import { exposureWarning, isolatedArgv, isolationOptions, toolEnv } from './tool-isolation';

export type ToolIsolationStatus = { usable: true; bwrap: string } | { usable: false; reason: string };

const registered = new Set<string>();

/** Paths no tool process may read (LOUPE_HOME and the like); they need not exist yet. */
export function protectFromTools(...paths: string[]): void {
  for (const p of paths) registered.add(path.resolve(p));
}

/** The registered paths that exist now, resolved (a link would otherwise be hidden, not its target). */
export function protectedPaths(): string[] {
  return [...registered].flatMap((p) => {
    try {
      return [fs.realpathSync(p)];
    } catch {
      return [];
    }
  });
}

function findBwrap(): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/bin', '/bin', '/usr/local/bin']) {
    const candidate = path.join(dir, 'bwrap');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const PROBE_TIMEOUT_MS = 10_000;

function probe(): ToolIsolationStatus {
  if (process.platform !== 'linux') return { usable: false, reason: `bubblewrap needs Linux (this is ${process.platform})` };
  const bwrap = findBwrap();
  if (!bwrap) return { usable: false, reason: 'bubblewrap (bwrap) is not installed' };
  // the real options (a hidden directory with one bound back) on `true`: namespaces, a fresh /proc
  // and tmpfs mounts can each be refused (no user namespaces, a container's masked /proc)
  const here = fs.realpathSync(__dirname);
  const argv = isolatedArgv({ bwrap, hide: [path.dirname(here)], keep: [here], cwd: here }, ['true']);
  const r = spawnSync(argv[0], argv.slice(1), { env: { ...LAUNCHER_ENV }, timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' });
  if (r.status === 0) return { usable: true, bwrap };
  const why = r.error?.message ?? (r.stderr.trim().split('\n').pop() || `exit ${r.status ?? r.signal}`);
  return { usable: false, reason: `bubblewrap cannot create the tool wrapper here: ${why}` };
}

let status: ToolIsolationStatus | undefined;
let warned = false;

/** This machine's answer, worked out on first use and then kept. */
export function toolIsolation(): ToolIsolationStatus {
  return (status ??= probe());
}

export interface ToolLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  isolated: boolean;
}

export interface ToolLaunchOptions {
  /** the variables the tool's config names, on top of the allow-list */
  env?: Record<string, string>;
  cwd?: string;
  /** the session's workspace: stays reachable where it lies inside a protected path */
  workspace?: string;
  /** instead of the allow-listed part of Loupe's environment (the `none` command tool builds its own) */
  baseEnv?: Record<string, string>;
}

/** How to start one tool process: inside the wrapper where it can run, else as it is (warned once). */
export function toolLaunch(argv: readonly string[], opts: ToolLaunchOptions = {}): ToolLaunch {
  const env = { ...(opts.baseEnv ?? toolEnv(process.env)), ...(opts.env ?? {}) };
  const iso = toolIsolation();
  if (!iso.usable) {
    if (!warned) new Logger('ToolIsolation').warn(exposureWarning(iso.reason));
    warned = true;
    return { command: argv[0], args: argv.slice(1), env, isolated: false };
  }
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const options = isolationOptions({
    bwrap: iso.bwrap,
    hide: protectedPaths(),
    keep: opts.workspace ? [real(opts.workspace)] : [],
    cwd: opts.cwd ? path.resolve(opts.cwd) : undefined,
  });
  return { command: iso.bwrap, args: [...options, '--', ...argv], env, isolated: true };
}
