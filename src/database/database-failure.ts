// Why a database call failed decides what to do next: a database that is unreachable or restarting
// is waited for (the call is repeated later); a statement Postgres refuses as data never succeeds
// by repeating it.
import type { DatabaseHealth } from './database-health';

export type DatabaseFailure = 'unavailable' | 'refused';

// SQLSTATE classes that say "this data, in this statement, is wrong" (repeating cannot help):
// 22 data exception, 23 integrity constraint violation, 42 syntax error or access rule violation,
// 54 program limit exceeded (a journal batch over jsonb's 256 MB: halving it is what helps).
const DATA_CLASSES = new Set(['22', '23', '42', '54']);

export function classifyDatabaseFailure(error: unknown): DatabaseFailure {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && DATA_CLASSES.has(code.slice(0, 2))) return 'refused';
  return 'unavailable';
}

/** Runs `fn`, repeating it while the database is unavailable (restarting), up to `deadlineMs`. */
export async function whileUnavailable<T>(fn: () => Promise<T>, opts: { deadlineMs: number; health?: DatabaseHealth }): Promise<T> {
  const deadline = Date.now() + opts.deadlineMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const failure = opts.health?.failure;
      if (failure) throw new Error(`the database is gone: ${failure.message.split('\n')[0]}`);
      if (classifyDatabaseFailure(e) === 'refused' || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** attempt)));
    }
  }
}
