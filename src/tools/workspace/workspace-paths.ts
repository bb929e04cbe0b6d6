// How a workspace tool's failure reads to the model. Paths are confined by the walk in
// workspace-walk.ts; a path that would leave the workspace is a WorkspaceEscapeError, a file the
// tools will not touch (a FIFO, a hard link, a replaced root) a WorkspaceRefusal.
import { shownPath, WorkspaceRefusal } from './workspace-refusal';

export class WorkspaceEscapeError extends Error {
  constructor(readonly requested: string) {
    super(`Path "${requested}" is outside the workspace`);
    this.name = 'WorkspaceEscapeError';
  }
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
  if (e instanceof WorkspaceEscapeError || e instanceof WorkspaceRefusal) return e.message;
  const code = (e as NodeJS.ErrnoException)?.code;
  const shown = shownPath(requested);
  if (code && ERROR_TEXT[code]) return `${ERROR_TEXT[code]}: ${shown}`;
  return `Could not access ${shown}${code ? ` (${code})` : ''}`;
}
