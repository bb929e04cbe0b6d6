// A workspace root's identity (device + inode), taken when Loupe makes the workspace and checked on
// every tool call: a root replaced afterwards — by a symlink or by another directory — is refused,
// not followed. Its real path is kept too, to read absolute symlink targets inside the workspace.
import { closeSync, constants as c, fstatSync, openSync, realpathSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { rootReplaced } from './workspace-refusal';

interface RootIdentity {
  dev: bigint;
  ino: bigint;
  real: string;
}

// one entry per workspace in use in this process (a trial or an API session forgets its own when it
// ends); bounded too, for roots nothing forgets (tools opened on a caller's directory)
const ROOTS = new Map<string, RootIdentity>();
const MAX_ROOTS = 50_000;

/** O_NOFOLLOW: a root that is now a symlink fails to open; O_NONBLOCK: one that is now a FIFO does not block. */
const ROOT_FLAGS = c.O_RDONLY | c.O_DIRECTORY | c.O_NOFOLLOW | c.O_NONBLOCK;

async function openRoot(root: string): Promise<FileHandle> {
  try {
    return await fs.open(root, ROOT_FLAGS);
  } catch (e) {
    throw refusedOpen(e);
  }
}

function remember(root: string, id: RootIdentity): void {
  ROOTS.delete(root);
  if (ROOTS.size >= MAX_ROOTS) ROOTS.delete(ROOTS.keys().next().value!);
  ROOTS.set(root, id);
}

function refusedOpen(e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT' ? rootReplaced() : e;
}

/** Records `root` (a real directory, not a link) as this workspace's root. */
export async function registerWorkspaceRoot(root: string): Promise<void> {
  const handle = await openRoot(root);
  try {
    const { dev, ino } = await handle.stat({ bigint: true });
    remember(root, { dev, ino, real: await fs.realpath(root) });
  } finally {
    await handle.close();
  }
}

/**
 * registerWorkspaceRoot for a directory Loupe has just made, in four direct system calls: a trial's
 * setup otherwise makes four thread-pool round trips (each a wake-up and a promise) for the same
 * microseconds of work, which at 64 trials at once on two cores cost more than the calls.
 */
export function registerNewWorkspaceRoot(root: string): void {
  let fd: number;
  try {
    fd = openSync(root, ROOT_FLAGS);
  } catch (e) {
    throw refusedOpen(e);
  }
  try {
    const { dev, ino } = fstatSync(fd, { bigint: true });
    remember(root, { dev, ino, real: realpathSync.native(root) });
  } finally {
    closeSync(fd);
  }
}

/**
 * Drops a root's recorded identity once nothing in this process will use the workspace again (its
 * trial judged, its session ended): an eval of 100,000 trials otherwise kept every identity it ever made, up to the cap.
 * A later use records it afresh, as for a root Loupe did not make.
 */
export function forgetWorkspaceRoot(root: string): void {
  ROOTS.delete(root);
}

/** Whether this process holds `root`'s identity (tests of forgetting). */
export function holdsRootIdentity(root: string): boolean {
  return ROOTS.has(root);
}

export interface VerifiedRoot {
  handle: FileHandle;
  real: string;
}

/**
 * The root, opened and checked against its recorded identity. A root Loupe did not make (tools
 * opened on a directory of the caller's) is recorded on its first use.
 */
export async function openVerifiedRoot(root: string): Promise<VerifiedRoot> {
  let id = ROOTS.get(root);
  if (!id) {
    await registerWorkspaceRoot(root);
    id = ROOTS.get(root)!;
  }
  const handle = await openRoot(root);
  try {
    const { dev, ino } = await handle.stat({ bigint: true });
    if (dev !== id.dev || ino !== id.ino) throw rootReplaced();
  } catch (e) {
    await handle.close();
    throw e;
  }
  return { handle, real: id.real };
}

/** Throws when the root was replaced since it was recorded. */
export async function checkWorkspaceRoot(root: string): Promise<void> {
  await (await openVerifiedRoot(root)).handle.close();
}
