// Which Loupe ran a trial: the git revision of the checkout (with `+dirty` when it has changes), or
// LOUPE_REVISION (a container build sets it), or the package version. Asked once per process, without
// blocking it: two `git` runs took ~10 ms of the event loop at a run's start when they were synchronous;
// `loupe eval` asks while its database starts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
let cached: Promise<string> | undefined;

export function loupeRevision(): Promise<string> {
  cached ??= readRevision();
  return cached;
}

async function readRevision(): Promise<string> {
  // git finds the checkout from any directory inside it
  const git = async (...args: string[]) => (await run('git', args, { cwd: __dirname, encoding: 'utf8' })).stdout.trim();
  try {
    const [head, dirty] = await Promise.all([git('rev-parse', 'HEAD'), git('status', '--porcelain', '--untracked-files=no')]);
    return `${head}${dirty ? '+dirty' : ''}`;
  } catch {
    return process.env.LOUPE_REVISION || `v${process.env.npm_package_version ?? 'unknown'}`;
  }
}
