// Per-session workspace directories under <home>/workspaces, seeded from a scenario's files.
import { mkdirSync, promises as fsp, rmdir } from 'node:fs';
import * as path from 'node:path';
import { readWorkspaceHead, writeWorkspaceText } from './workspace-file-io';
import { registerNewWorkspaceRoot } from './workspace-root';

/**
 * Makes the workspace, records its root's identity, and writes the seed files as write_file writes them.
 * The directory and its identity take direct system calls (see registerNewWorkspaceRoot).
 */
export async function createWorkspace(home: string, sessionId: string, files: Record<string, string> = {}): Promise<string> {
  const dir = path.join(home, 'workspaces', sessionId);
  mkdirSync(dir, { recursive: true });
  registerNewWorkspaceRoot(dir);
  for (const [rel, content] of Object.entries(files)) await writeWorkspaceText(dir, rel, content);
  return dir;
}

/**
 * Removes a workspace. Most are left empty: one rmdir (a single thread-pool call), and the recursive
 * removal (a dozen calls and promises even for an empty directory) only when it holds something.
 */
export function removeWorkspace(dir: string): Promise<void> {
  return new Promise((resolve, reject) =>
    rmdir(dir, (e) => {
      if (!e || e.code === 'ENOENT') return resolve();
      if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') return reject(e);
      fsp.rm(dir, { recursive: true, force: true }).then(resolve, reject);
    }),
  );
}

/** the most an expectation reads of one file */
const MAX_EXPECTATION_BYTES = 64 * 1024 * 1024;

/**
 * Reads a workspace file for assertions, as read_file reads one (the model may have made the path
 * a FIFO, a link or a hard link); undefined when absent, outside the workspace or refused.
 */
export async function readWorkspaceFile(dir: string, rel: string): Promise<string | undefined> {
  try {
    return (await readWorkspaceHead(dir, rel, MAX_EXPECTATION_BYTES)).bytes.toString('utf8');
  } catch {
    return undefined;
  }
}
