// Per-session workspace directories under <home>/workspaces, seeded from a scenario's files.
import * as fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { SYNC_IO_MAX_BYTES } from './workspace-file-io';
import { resolveInWorkspace } from './workspace-paths';

/**
 * Directories are made synchronously, as are small seed files: a thread-pool round trip per call
 * cost a trial more than the calls themselves (see workspace-file-io.ts). Large files are written async.
 */
export async function createWorkspace(home: string, sessionId: string, files: Record<string, string> = {}): Promise<string> {
  const dir = path.join(home, 'workspaces', sessionId);
  fs.mkdirSync(dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const abs = resolveInWorkspace(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    // three bytes per UTF-16 unit at most: a bound on its UTF-8 size without encoding it
    if (content.length * 3 <= SYNC_IO_MAX_BYTES) fs.writeFileSync(abs, content);
    else await writeFile(abs, content);
  }
  return dir;
}

/** Reads a workspace file for assertions; undefined when absent or outside the workspace. */
export function readWorkspaceFile(dir: string, rel: string): string | undefined {
  try {
    return fs.readFileSync(resolveInWorkspace(dir, rel), 'utf8');
  } catch {
    return undefined;
  }
}
