// Whether a path lies inside a directory once every symbolic link on the way is resolved: a path
// checked only by its text (`..`, absolute) can still lead out through a link inside the directory.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The path with every link resolved: those of its nearest existing ancestor, the rest as written. */
function resolved(p: string): string {
  let existing = path.resolve(p);
  for (;;) {
    try {
      return path.join(fs.realpathSync(existing), path.relative(existing, path.resolve(p)));
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return path.resolve(p);
      existing = parent;
    }
  }
}

/** `abs` resolves outside `root`, both through their links (a path that does not exist yet, through its ancestors'). */
export function resolvesOutside(abs: string, root: string): boolean {
  const target = resolved(abs);
  const base = resolved(root);
  return target !== base && !target.startsWith(base + path.sep);
}

export const OUTSIDE_THROUGH_LINK = 'resolves through a symbolic link to a path outside the scenarios directory';
