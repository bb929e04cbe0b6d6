// Which Loupe ran a trial: the git revision of the checkout (with `+dirty` when it has changes), or
// LOUPE_REVISION (a container build sets it), or the package version.
import { execFileSync } from 'node:child_process';

let cached: string | undefined;

export function loupeRevision(): string {
  if (cached) return cached;
  // git finds the checkout from any directory inside it
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: __dirname,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: __dirname,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    cached = `${head}${dirty ? '+dirty' : ''}`;
  } catch {
    cached = process.env.LOUPE_REVISION || `v${process.env.npm_package_version ?? 'unknown'}`;
  }
  return cached;
}
