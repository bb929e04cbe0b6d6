// Which Loupe ran a trial: the git revision of the checkout (with `+dirty` when it has changes), or
// LOUPE_REVISION (a container build sets it), or the package version; and, when dirty, a hash of the
// uncommitted diff, so two `+dirty` runs can be told apart. Asked once per process, without blocking
// it: two `git` runs took ~10 ms of the event loop at a run's start when they were synchronous;
// `loupe eval` asks while its database starts.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);
let cached: Promise<string> | undefined;
let cachedDiff: Promise<string | null> | undefined;

// git finds the checkout from any directory inside it
const git = async (cwd: string, ...args: string[]) =>
  (await run('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })).stdout;

export function loupeRevision(): Promise<string> {
  cached ??= revisionOf(__dirname);
  return cached;
}

/** sha256 (hex) of `git diff HEAD` when the checkout has uncommitted changes to tracked files; null when clean or not a checkout. */
export function loupeDiffHash(): Promise<string | null> {
  cachedDiff ??= diffHashOf(__dirname);
  return cachedDiff;
}

/** The revision of the checkout `dir` lies in (see loupeRevision). */
export async function revisionOf(dir: string): Promise<string> {
  try {
    const [head, dirty] = await Promise.all([git(dir, 'rev-parse', 'HEAD'), git(dir, 'status', '--porcelain', '--untracked-files=no')]);
    return `${head.trim()}${dirty.trim() ? '+dirty' : ''}`;
  } catch {
    return process.env.LOUPE_REVISION || `v${process.env.npm_package_version ?? 'unknown'}`;
  }
}

/** The diff hash of the checkout `dir` lies in (see loupeDiffHash). */
export async function diffHashOf(dir: string): Promise<string | null> {
  try {
    // --no-ext-diff and --no-color: the bytes do not depend on the user's git configuration
    const diff = await git(dir, 'diff', 'HEAD', '--no-ext-diff', '--no-color', '--binary');
    return diffHash(diff);
  } catch {
    return null;
  }
}

/** The hash of a diff's text; null for an empty diff (a clean checkout). Pure. */
export function diffHash(diff: string): string | null {
  return diff ? createHash('sha256').update(diff).digest('hex') : null;
}
