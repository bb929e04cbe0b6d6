// Per-session workspace directories under <home>/workspaces, seeded from a scenario's files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveInWorkspace } from './workspace-paths';

export function createWorkspace(home: string, sessionId: string, files: Record<string, string> = {}): string {
  const dir = path.join(home, 'workspaces', sessionId);
  fs.mkdirSync(dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const abs = resolveInWorkspace(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
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
