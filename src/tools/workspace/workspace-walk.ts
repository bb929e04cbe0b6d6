// The confinement walk: a path the model gives is resolved inside the workspace one component at a
// time, each looked up in a directory Loupe holds open (starting from the verified root), never by
// a host path the kernel would walk again. `..`, absolute paths elsewhere and symlinks pointing out
// (dangling ones too) are refused; links that stay inside are followed by this walk, never by the
// kernel, so a directory swapped for a link between a check and a use cannot redirect anything.
//
// Node has no openat(). `/proc/self/fd/<fd>/<name>` is its equivalent: the kernel jumps through
// the magic link to the very directory the descriptor holds (wherever it is now), then looks up
// that one name there, and O_NOFOLLOW makes a symlink at that name fail rather than be followed.
// Chosen over a native openat2(RESOLVE_BENEATH) helper: nothing to compile at install, and it
// works on every Linux kernel with /proc (openat2 needs 5.6); without /proc the tools fail closed.
import { constants as c, type Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { WorkspaceEscapeError } from './workspace-paths';
import { componentKeptChanging, errnoError } from './workspace-refusal';
import { openVerifiedRoot } from './workspace-root';

/** O_NONBLOCK: opening a FIFO never waits for its other end. */
const DIR_FLAGS = c.O_RDONLY | c.O_DIRECTORY | c.O_NOFOLLOW | c.O_NONBLOCK;
const MAX_LINK_HOPS = 40;
/** a component that changes kind between two looks is looked at again, this many times in all */
const MAX_RETRIES = 16;

/** The entry `name` of the directory `dir` holds open, as a path the kernel resolves through that descriptor. */
export function at(dir: FileHandle, name = ''): string {
  return name ? `/proc/self/fd/${dir.fd}/${name}` : `/proc/self/fd/${dir.fd}`;
}

/** The components of `requested`, normalized lexically; a leading "/" is read as the workspace root. */
export function lexicalParts(requested: string): string[] {
  if (typeof requested !== 'string' || requested.includes('\0')) throw new WorkspaceEscapeError(String(requested));
  const parts: string[] = [];
  for (const part of requested.replace(/^[/\\]+/, '').split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') parts.push(part);
    else if (!parts.pop()) throw new WorkspaceEscapeError(requested);
  }
  return parts;
}

async function orAbsent<T>(op: Promise<T>, absent: readonly string[] = ['ENOENT']): Promise<T | undefined> {
  try {
    return await op;
  } catch (e) {
    if (absent.includes((e as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw e;
  }
}

export const lstatAt = (dir: FileHandle, name: string): Promise<Stats | undefined> => orAbsent(fs.lstat(at(dir, name)));

/** The directory `name` in `dir`, opened; 'absent', or 'other' when it is not a directory (a link included). */
export async function openDirAt(dir: FileHandle, name: string): Promise<FileHandle | 'absent' | 'other'> {
  try {
    return await fs.open(at(dir, name), DIR_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'absent';
    if (code === 'ENOTDIR' || code === 'ELOOP') return 'other';
    throw e;
  }
}

/** Where a link found at `names`/… points, as workspace components; refused when that is outside. */
function linkTarget(realRoot: string, names: string[], target: string, requested: string): string[] {
  const rel = path.relative(realRoot, path.resolve(realRoot, ...names, target));
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) throw new WorkspaceEscapeError(requested);
  return rel.split(path.sep).filter(Boolean);
}

export interface WalkEnd {
  /** the directory holding the last component, open and reached inside the workspace */
  dir: FileHandle;
  /** the last component; absent when the path names `dir` itself (the root, or "src/.") */
  name?: string;
  /** the last component as lstat saw it (never a symlink: those are followed); absent when it does not exist */
  entry?: Stats;
  /** the workspace-relative path reached, links resolved, '/'-separated ("." for the root) */
  rel: string;
}

/**
 * Walks `requested` from the workspace root and hands `use` the last component's directory, held
 * open; every descriptor is closed when `use` settles. With `create`, missing directories on the
 * way are made (relative to their held parent).
 */
export async function walkWorkspace<T>(root: string, requested: string, create: boolean, use: (end: WalkEnd) => Promise<T>): Promise<T> {
  const pendingAtStart = lexicalParts(requested);
  const ws = await openVerifiedRoot(root);
  const held: FileHandle[] = [];
  const names: string[] = [];
  const closeHeld = async () => {
    for (const h of held.splice(0)) await h.close();
    names.length = 0;
  };
  try {
    let pending = pendingAtStart;
    let hops = 0;
    let retries = 0;
    const retry = () => {
      if (++retries > MAX_RETRIES) throw componentKeptChanging();
    };
    const follow = async (dir: FileHandle, name: string) => {
      const target = await orAbsent(fs.readlink(at(dir, name)), ['ENOENT', 'EINVAL']);
      if (target === undefined) return retry(); // no longer a link: look again
      if (++hops > MAX_LINK_HOPS) throw new WorkspaceEscapeError(requested);
      const parts = linkTarget(ws.real, names, target, requested);
      const rest = pending.slice(1);
      await closeHeld();
      pending = [...parts, ...rest];
    };
    while (pending.length) {
      const dir = held.at(-1) ?? ws.handle;
      const name = pending[0];
      if (pending.length === 1) {
        const entry = await lstatAt(dir, name);
        if (entry?.isSymbolicLink()) await follow(dir, name);
        else return await use({ dir, name, entry, rel: [...names, name].join('/') });
        continue;
      }
      const opened = await openDirAt(dir, name);
      if (opened === 'absent') {
        if (!create) throw errnoError('ENOENT');
        // EEXIST: something appeared meanwhile; it is looked at again
        if (
          (await orAbsent(
            fs.mkdir(at(dir, name)).then(() => true),
            ['EEXIST'],
          )) === undefined
        )
          retry();
      } else if (opened === 'other') {
        const entry = await lstatAt(dir, name);
        if (entry?.isSymbolicLink()) await follow(dir, name);
        else if (!entry || entry.isDirectory()) retry();
        else throw errnoError('ENOTDIR');
      } else {
        held.push(opened);
        names.push(name);
        pending = pending.slice(1);
      }
    }
    return await use({ dir: held.at(-1) ?? ws.handle, rel: names.join('/') || '.' });
  } finally {
    await closeHeld();
    await ws.handle.close();
  }
}
