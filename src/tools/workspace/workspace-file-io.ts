// The workspace tools' file I/O, on paths the model controls. Everything is asynchronous (a FIFO,
// a slow disk or a hung mount holds a thread-pool thread at worst, never the event loop), every
// open is relative to a directory reached by the confinement walk (workspace-walk.ts), with
// O_NOFOLLOW and O_NONBLOCK, and what was opened is checked through its descriptor (fstat) before a
// byte is read or written: only regular files with one hard link (or on the read allow-list).
import { constants as c, type Dirent, type Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { at, lexicalParts, lstatAt, openDirAt, walkWorkspace } from './workspace-walk';
import { componentIsLink, errnoError, notA, tooManyLinks } from './workspace-refusal';

const READ_FLAGS = c.O_RDONLY | c.O_NOFOLLOW | c.O_NONBLOCK;
// no O_TRUNC: a file is truncated only once its descriptor shows it is ours to change
const WRITE_FLAGS = c.O_WRONLY | c.O_CREAT | c.O_NOFOLLOW | c.O_NONBLOCK;

export interface ReadOptions {
  /** workspace-relative files (or directories, for everything below) that may be read with more than one hard link */
  hardLinkReadAllow?: readonly string[];
}

/** Opens `name` in `dir`; a link or a special file that appeared since the walk looked is refused. */
async function openAt(dir: FileHandle, name: string, flags: number, requested: string): Promise<FileHandle> {
  try {
    return await fs.open(at(dir, name), flags, 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw componentIsLink();
    // ENXIO: a socket, or a FIFO with no reader: say which
    const now = code === 'ENXIO' ? await lstatAt(dir, name) : undefined;
    if (now) throw notA(requested, now, 'a regular file');
    throw e;
  }
}

function checkRegular(stats: Stats, requested: string, rel: string, allow: readonly string[]): void {
  if (!stats.isFile()) throw notA(requested, stats, 'a regular file');
  if (stats.nlink > 1 && !allowed(rel, allow)) throw tooManyLinks(requested, stats.nlink);
}

function allowed(rel: string, allow: readonly string[]): boolean {
  return allow.some((entry) => {
    const norm = lexicalParts(entry).join('/');
    return norm === '' || norm === rel || rel.startsWith(`${norm}/`);
  });
}

export interface FileHead {
  bytes: Buffer;
  /** the file's whole size */
  size: number;
  rel: string;
}

/** The first `maxBytes` bytes of a workspace file, and its size. */
export async function readWorkspaceHead(root: string, requested: string, maxBytes: number, opts: ReadOptions = {}): Promise<FileHead> {
  return walkWorkspace(root, requested, false, async ({ dir, name, entry, rel }) => {
    if (!name || entry?.isDirectory()) throw errnoError('EISDIR');
    if (!entry) throw errnoError('ENOENT');
    if (!entry.isFile()) throw notA(requested, entry, 'a regular file');
    const handle = await openAt(dir, name, READ_FLAGS, requested);
    try {
      const stats = await handle.stat();
      checkRegular(stats, requested, rel, opts.hardLinkReadAllow ?? []);
      const buf = Buffer.alloc(Math.min(stats.size, maxBytes));
      let filled = 0;
      while (filled < buf.length) {
        const { bytesRead } = await handle.read(buf, filled, buf.length - filled, filled);
        if (!bytesRead) break; // it shrank meanwhile
        filled += bytesRead;
      }
      return { bytes: buf.subarray(0, filled), size: stats.size, rel };
    } finally {
      await handle.close();
    }
  });
}

/** Creates or overwrites a workspace file (and its missing parent directories) with `content` as UTF-8. */
export async function writeWorkspaceText(root: string, requested: string, content: string): Promise<{ written: number; rel: string }> {
  const bytes = Buffer.from(content, 'utf8');
  return walkWorkspace(root, requested, true, async ({ dir, name, entry, rel }) => {
    if (!name || entry?.isDirectory()) throw errnoError('EISDIR');
    if (entry && !entry.isFile()) throw notA(requested, entry, 'a regular file');
    const handle = await openAt(dir, name, WRITE_FLAGS, requested);
    try {
      const stats = await handle.stat();
      checkRegular(stats, requested, rel, []);
      for (let done = 0; done < bytes.length;) done += (await handle.write(bytes, done, bytes.length - done, done)).bytesWritten;
      // cut what is left of a longer old content after writing: truncating to 0 first makes ext4 flush the old blocks
      if (stats.size > bytes.length) await handle.truncate(bytes.length);
    } finally {
      await handle.close();
    }
    return { written: bytes.length, rel };
  });
}

/** A workspace directory's entries. */
export async function listWorkspaceDir(root: string, requested: string): Promise<Dirent[]> {
  return walkWorkspace(root, requested, false, async ({ dir, name, entry }) => {
    if (!name) return fs.readdir(at(dir), { withFileTypes: true });
    if (!entry) throw errnoError('ENOENT');
    if (entry.isFile()) throw errnoError('ENOTDIR');
    if (!entry.isDirectory()) throw notA(requested, entry, 'a directory');
    const opened = await openDirAt(dir, name);
    if (opened === 'absent') throw errnoError('ENOENT');
    if (opened === 'other') throw componentIsLink();
    try {
      return await fs.readdir(at(opened), { withFileTypes: true });
    } finally {
      await opened.close();
    }
  });
}
