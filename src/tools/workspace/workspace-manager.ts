// Per-session workspace directories under <home>/workspaces, seeded from a scenario's files.
import { mkdirSync, promises as fsp, rmdir } from 'node:fs';
import * as path from 'node:path';
import { readWorkspaceHead, writeWorkspaceText } from './workspace-file-io';
import { registerNewWorkspaceRoot } from './workspace-root';

/** A session's workspace: its path at once, the directory itself when something first needs it. */
export interface SessionWorkspace {
  readonly dir: string;
  /** makes the directory and records its root's identity, once; later calls do nothing */
  ensure(): void;
  /** whether the directory has been made (a trial's removal has nothing to do otherwise) */
  readonly made: boolean;
}

/**
 * The workspace of a session that may never touch it: made now when it has seed files, otherwise by
 * `ensure()`, which its tools and MCP servers call before they use it. Most single-turn trials call
 * no tool, and a directory made and removed for each cost a mkdir, four calls to record its identity
 * and an rmdir a trial (about 6% of the CLI's thread at 64 trials at once).
 */
export async function prepareWorkspace(home: string, sessionId: string, files: Record<string, string> = {}): Promise<SessionWorkspace> {
  const dir = path.join(home, 'workspaces', sessionId);
  let made = false;
  const workspace: SessionWorkspace = {
    dir,
    ensure: () => {
      if (made) return;
      mkdirSync(dir, { recursive: true });
      registerNewWorkspaceRoot(dir);
      made = true;
    },
    get made() {
      return made;
    },
  };
  if (Object.keys(files).length === 0) return workspace;
  workspace.ensure();
  for (const [rel, content] of Object.entries(files)) await writeWorkspaceText(dir, rel, content);
  return workspace;
}

/**
 * Makes the workspace, records its root's identity, and writes the seed files as write_file writes them.
 * The directory and its identity take direct system calls (see registerNewWorkspaceRoot).
 */
export async function createWorkspace(home: string, sessionId: string, files: Record<string, string> = {}): Promise<string> {
  const workspace = await prepareWorkspace(home, sessionId, files);
  workspace.ensure();
  return workspace.dir;
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
