// A file check (`file:` in `expect`, `success` or `expect_by_profile`) reads the trial's workspace:
// a path that is absolute or leaves it (`../../outside/secret.txt`, once `..` is resolved) would
// judge a file outside — `exists: false` passing vacuously — so it is bad input, not a false check.
import * as path from 'node:path';
import { EXPECTATION_KINDS, SUCCESS_KINDS } from './scenario-expectation-schema';
import type { NameProblem } from './scenario-tool-names';

/** Why a file check's path is refused, if it is. */
export function fileCheckPathProblem(file: string): string | undefined {
  const p = file.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[A-Za-z]:\//.test(p)) return `"${file}" is absolute; file checks are relative to the workspace`;
  const normal = path.posix.normalize(p);
  if (normal === '..' || normal.startsWith('../')) return `"${file}" leaves the workspace`;
  return undefined;
}

/** Each file check in the document whose path is refused. */
export function fileCheckProblems(doc: unknown): NameProblem[] {
  const d = (doc ?? {}) as Record<string, unknown>;
  const lists: Array<{ path: string[]; kinds: readonly string[]; entries: unknown }> = [
    { path: ['expect'], kinds: EXPECTATION_KINDS, entries: d.expect },
    { path: ['success'], kinds: SUCCESS_KINDS, entries: d.success },
  ];
  const byProfile = d.expect_by_profile;
  if (byProfile && typeof byProfile === 'object' && !Array.isArray(byProfile))
    for (const [p, entries] of Object.entries(byProfile)) lists.push({ path: ['expect_by_profile', p], kinds: EXPECTATION_KINDS, entries });
  const problems: NameProblem[] = [];
  for (const list of lists) {
    if (!Array.isArray(list.entries)) continue;
    list.entries.forEach((entry, i) => {
      if (!entry || typeof entry !== 'object') return;
      // the entry's kind is its first known key, as the schema reads it
      if (list.kinds.find((k) => k in entry) !== 'file') return;
      const file = (entry as { file?: unknown }).file;
      const problem = typeof file === 'string' ? fileCheckPathProblem(file) : undefined;
      if (problem) problems.push({ path: [...list.path, i, 'file'], message: problem });
    });
  }
  return problems;
}
