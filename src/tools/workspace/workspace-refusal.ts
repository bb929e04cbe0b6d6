// Why a workspace tool refused a path, in words the model can act on. Refusals name the path the
// model asked for (cut at 200 characters), never a host path.
import type { Stats } from 'node:fs';

export function shownPath(requested: string): string {
  return requested.length > 200 ? `${requested.slice(0, 200)}…` : requested;
}

export class WorkspaceRefusal extends Error {
  constructor(reason: string) {
    super(`refused: ${reason}`);
    this.name = 'WorkspaceRefusal';
  }
}

/** What a file is, as a phrase ("a FIFO", "a socket"…). */
export function kindOf(
  stats: Pick<Stats, 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>,
): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

export const notA = (requested: string, stats: Parameters<typeof kindOf>[0], wanted: 'a regular file' | 'a directory') =>
  new WorkspaceRefusal(`${shownPath(requested)} is ${kindOf(stats)}, not ${wanted}`);

export const tooManyLinks = (requested: string, nlink: number) => new WorkspaceRefusal(`${shownPath(requested)} has ${nlink} hard links`);

export const componentIsLink = () => new WorkspaceRefusal('a path component is a symbolic link');

export const componentKeptChanging = () => new WorkspaceRefusal('a path component kept changing while it was resolved');

export const rootReplaced = () => new WorkspaceRefusal('the workspace root was replaced');

/** An error with an errno code, shown to the model as workspaceErrorText words it ("File not found: x"). */
export function errnoError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}
