// Numbers and names in a session's spec are bounded at load: a duration Node cannot time (over
// 2^31-1 ms fires after 1 ms), a negative size, an absurd repeat count or a workspace file outside
// the workspace is bad input with a location, not a session that misbehaves later. Shared by
// scenario files and API sessions.
import { z } from 'zod';
import { MAX_TIMER_MS } from '../config/loupe-config';

/** A duration in milliseconds that a Node timer honours. */
export const durationMs = (min = 0) =>
  z.number().int().min(min).max(MAX_TIMER_MS, `at most ${MAX_TIMER_MS} ms (a longer Node timer fires at once)`);

/** How many requests get a stand-in fault. */
export const faultTimes = z.number().int().min(1).max(10_000);

export const chunkIndex = z.number().int().min(0).max(1_000_000);

export const tokenCount = z.number().int().min(0).max(100_000_000);

export const byteCount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Why a workspace file name is refused, if it is: it must be relative, inside the workspace, without NUL. */
export function workspacePathProblem(p: string): string | undefined {
  if (p.includes('\u0000')) return 'contains a NUL byte';
  if (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)) return 'is absolute; workspace files are relative to the workspace';
  if (p.startsWith('~')) return 'starts with ~; workspace files are relative to the workspace';
  const parts = p.split(/[\\/]/);
  if (parts.includes('..')) return 'leaves the workspace (..)';
  if (parts.every((part) => part === '' || part === '.')) return 'names no file';
  return undefined;
}

/** Largest generated workspace file: enough for window-scale budgets (dexto prunes past 40k tokens), small enough to stay a test. */
export const MAX_GENERATED_FILE_CHARS = 16 * 1024 * 1024;

/** A file's text, or text repeated (`{ repeat: "a line\n", times: 5000 }`) for the large files context budgets need. */
const fileContent = z.union([
  z.string(),
  z
    .strictObject({ repeat: z.string().min(1), times: z.number().int().min(1).max(1_000_000) })
    .refine((g) => g.repeat.length * g.times <= MAX_GENERATED_FILE_CHARS, {
      message: `generates more than ${MAX_GENERATED_FILE_CHARS} chars`,
    }),
]);

/** Workspace files by name, every name checked, so a scenario that would write outside never starts. */
export const workspaceFiles = z
  .record(z.string(), fileContent)
  .superRefine((files, ctx) => {
    for (const name of Object.keys(files)) {
      const problem = workspacePathProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', path: [name], message: `workspace file "${name}" ${problem}` });
    }
  })
  .transform((files) =>
    Object.fromEntries(Object.entries(files).map(([name, c]) => [name, typeof c === 'string' ? c : c.repeat.repeat(c.times)])),
  );
