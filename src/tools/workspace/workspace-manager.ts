// Per-session workspace directories under <home>/workspaces, seeded from a scenario's files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeTextNoFollow } from './workspace-file-io';
import { resolveInWorkspace } from './workspace-paths';

/**
 * Directories are made synchronously, and seed files are written as write_file writes them (small
 * ones synchronously, never through a link): a thread-pool round trip per call cost a trial more
 * than the calls themselves (see workspace-file-io.ts).
 */
export async function createWorkspace(home: string, sessionId: string, files: Record<string, string> = {}): Promise<string> {
  const dir = path.join(home, 'workspaces', sessionId);
  fs.mkdirSync(dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const abs = resolveInWorkspace(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    await writeTextNoFollow(abs, content);
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
