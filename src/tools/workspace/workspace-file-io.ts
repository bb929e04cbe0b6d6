// The workspace tools' file I/O. Small files and directories are read and written synchronously:
// each async call is a thread-pool round trip (about 0.1 ms here), and open + write + close took
// three of them for a few bytes that a synchronous call writes in a few microseconds. Anything
// larger goes through the thread pool, so one big file never holds the event loop for long.
import { closeSync, constants as fsConstants, openSync, readSync, readdirSync, statSync, writeSync, type Dirent } from 'node:fs';
import * as fs from 'node:fs/promises';

/** Up to this many bytes, a read, a write or a directory listing is done synchronously. */
export const SYNC_IO_MAX_BYTES = 64 * 1024;

// O_NOFOLLOW: a link put in place after the path was checked is refused, not followed
const WRITE_FLAGS = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC | fsConstants.O_NOFOLLOW;

/** The first `length` bytes of a file (fewer if it shrank meanwhile). */
export async function readFileHead(abs: string, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  if (length <= SYNC_IO_MAX_BYTES) {
    const fd = openSync(abs, 'r');
    try {
      return buf.subarray(0, readSync(fd, buf, 0, length, 0));
    } finally {
      closeSync(fd);
    }
  }
  const handle = await fs.open(abs, 'r');
  try {
    const { bytesRead } = await handle.read(buf, 0, length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Creates or truncates `abs` (never through a link) and writes `content` as UTF-8; returns the bytes written. */
export async function writeTextNoFollow(abs: string, content: string): Promise<number> {
  const bytes = Buffer.from(content, 'utf8');
  if (bytes.length <= SYNC_IO_MAX_BYTES) {
    const fd = openSync(abs, WRITE_FLAGS, 0o644);
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    } finally {
      closeSync(fd);
    }
    return bytes.length;
  }
  const handle = await fs.open(abs, WRITE_FLAGS, 0o644);
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
  return bytes.length;
}

/** A directory's entries; synchronously when its own size says it holds few (up to a few thousand names). */
export async function readDirectory(abs: string): Promise<Dirent[]> {
  const stat = statSync(abs);
  if (stat.isDirectory() && stat.size <= SYNC_IO_MAX_BYTES) return readdirSync(abs, { withFileTypes: true });
  return fs.readdir(abs, { withFileTypes: true });
}
