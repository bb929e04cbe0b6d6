// Confinement of workspace tools: every path a model gives is resolved inside the session's
// workspace; `..`, absolute paths elsewhere and symlinks that point outside are refused.
import * as fs from 'node:fs';
import * as path from 'node:path';

export class WorkspaceEscapeError extends Error {
  constructor(readonly requested: string) {
    super(`Path "${requested}" is outside the workspace`);
    this.name = 'WorkspaceEscapeError';
  }
}

function within(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Real path of the longest existing prefix of `p` (so a symlinked parent is followed). */
function realPrefix(p: string): string {
  let current = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return p;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

export function resolveInWorkspace(root: string, requested: string): string {
  if (typeof requested !== 'string' || requested.includes('\0')) throw new WorkspaceEscapeError(String(requested));
  const realRoot = fs.realpathSync(root);
  // A leading "/" is read as workspace-relative: models often write "/src/x.ts" meaning the project root.
  const relative = requested.replace(/^[/\\]+/, '');
  const absolute = path.resolve(realRoot, relative);
  if (!within(realRoot, absolute)) throw new WorkspaceEscapeError(requested);
  if (!within(realRoot, realPrefix(absolute))) throw new WorkspaceEscapeError(requested);
  return absolute;
}

export function toWorkspaceRelative(root: string, absolute: string): string {
  return path.relative(fs.realpathSync(root), absolute).split(path.sep).join('/') || '.';
}
