// Confinement of workspace tools: every path a model gives is resolved inside the session's
// workspace, one component at a time. `..`, absolute paths elsewhere, and symlinks pointing out —
// dangling ones included, which a later write would follow — are refused.
import * as fs from 'node:fs';
import * as path from 'node:path';

export class WorkspaceEscapeError extends Error {
  constructor(readonly requested: string) {
    super(`Path "${requested}" is outside the workspace`);
    this.name = 'WorkspaceEscapeError';
  }
}

const MAX_LINK_HOPS = 40;

function within(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/**
 * Follows `absolute` (lexically inside `root`) through the file system: each existing component is
 * examined, each symlink's target is checked and resolved in turn. What does not exist yet is
 * appended as written (it will be created as a plain file or directory inside the workspace).
 */
function resolveLinks(root: string, absolute: string, requested: string): string {
  let resolved = root;
  let pending = path.relative(root, absolute).split(path.sep).filter(Boolean);
  for (let hops = 0; pending.length;) {
    const part = pending.shift()!;
    const next = part === '..' ? path.dirname(resolved) : path.join(resolved, part);
    if (!within(root, next)) throw new WorkspaceEscapeError(requested);
    const stat = part === '..' ? undefined : lstat(next);
    if (!stat) {
      if (part !== '..') return path.join(next, ...pending); // the rest does not exist yet
      resolved = next;
      continue;
    }
    if (!stat.isSymbolicLink()) {
      resolved = next;
      continue;
    }
    if (++hops > MAX_LINK_HOPS) throw new WorkspaceEscapeError(requested);
    const target = path.resolve(resolved, fs.readlinkSync(next));
    if (!within(root, target)) throw new WorkspaceEscapeError(requested);
    pending = [...path.relative(root, target).split(path.sep).filter(Boolean), ...pending];
    resolved = root;
  }
  return resolved;
}

// A session's workspace root is created by Loupe and never moves: its real path is resolved once,
// not on every tool call (the components below it are still examined on every call).
const REAL_ROOTS = new Map<string, string>();
const MAX_REAL_ROOTS = 256;

function realRootOf(root: string): string {
  let real = REAL_ROOTS.get(root);
  if (real === undefined) {
    real = fs.realpathSync(root);
    if (REAL_ROOTS.size >= MAX_REAL_ROOTS) REAL_ROOTS.delete(REAL_ROOTS.keys().next().value!);
    REAL_ROOTS.set(root, real);
  }
  return real;
}

export function resolveInWorkspace(root: string, requested: string): string {
  if (typeof requested !== 'string' || requested.includes('\0')) throw new WorkspaceEscapeError(String(requested));
  const realRoot = realRootOf(root);
  // A leading "/" is read as workspace-relative: models often write "/src/x.ts" meaning the project root.
  const relative = requested.replace(/^[/\\]+/, '');
  const absolute = path.resolve(realRoot, relative);
  if (!within(realRoot, absolute)) throw new WorkspaceEscapeError(requested);
  return resolveLinks(realRoot, absolute, requested);
}

export function toWorkspaceRelative(root: string, absolute: string): string {
  return path.relative(realRootOf(root), absolute).split(path.sep).join('/') || '.';
}

const ERROR_TEXT: Record<string, string> = {
  ENOENT: 'File not found',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ENAMETOOLONG: 'File name too long',
  EACCES: 'Permission denied',
  EPERM: 'Permission denied',
  ELOOP: 'Too many levels of symbolic links',
  EEXIST: 'Already exists',
  ENOSPC: 'No space left on the device',
  EFBIG: 'File too large',
  EROFS: 'Read-only file system',
};

/** An error as the model sees it: what went wrong and the path it asked for, never a host path. */
export function workspaceErrorText(e: unknown, requested: string): string {
  if (e instanceof WorkspaceEscapeError) return e.message;
  const code = (e as NodeJS.ErrnoException)?.code;
  const shown = requested.length > 200 ? `${requested.slice(0, 200)}…` : requested;
  if (code && ERROR_TEXT[code]) return `${ERROR_TEXT[code]}: ${shown}`;
  return `Could not access ${shown}${code ? ` (${code})` : ''}`;
}
