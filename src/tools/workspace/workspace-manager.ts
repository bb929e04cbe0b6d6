// Per-session workspace directories under <home>/workspaces, seeded from a scenario's files.
import * as fs from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { resolveInWorkspace } from './workspace-paths';

/** Asynchronous, so that concurrent trials' other work goes on while the directories are made. */
export async function createWorkspace(home: string, sessionId: string, files: Record<string, string> = {}): Promise<string> {
  const dir = path.join(home, 'workspaces', sessionId);
  await mkdir(dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const abs = resolveInWorkspace(dir, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
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
