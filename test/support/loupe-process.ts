// Long-running `loupe` child processes for tests that kill them (kill -9) or run several at once:
// stdout and stderr kept, the exit awaited, and a seeded random source so a failing kill moment can
// be reproduced.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { ROOT } from './run-cli';
import { waitUntil } from './wait';

export type LoupeProcess = ChildProcess & { out: () => string; err: () => string; exited: Promise<number | string | null> };

/** A child `loupe` process; `exited` is its exit code, or the signal that ended it. */
export function spawnLoupe(args: string[], env: Record<string, string>): LoupeProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'loupe.js'), ...args], { env, cwd: ROOT });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | string | null>((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  return Object.assign(child, { out: () => out, err: () => err, exited });
}

/** kill -9, and wait until it is gone. */
export async function killHard(child: LoupeProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await child.exited;
}

/** Polls `check` (through the shared waitUntil); for a child's output, untilOutput waits on the output itself. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  await waitUntil(check, { what, timeoutMs });
}

/** The environment of a child Loupe: this one's, on the given database, without a real Ollama unless given. */
export function loupeEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'OLLAMA_HOST' && k !== 'DATABASE_URL') env[k] = v;
  return { ...env, ...extra };
}

/** Trials a running `loupe eval` (or worker) has reported finished on stderr (✓ passed, ✗ failed, ! error lines). */
export function finishedLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => /^[✓✗!] /.test(l));
}
