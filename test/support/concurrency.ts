// Bounded concurrency for `it.concurrent` cases. jest starts concurrent cases up to its global
// maxConcurrency (5) at once; a suite whose cases each start CLI processes runs them through one of
// these instead, so its cases overlap (a child mostly waits on another child, on Postgres or on its
// own start) without crowding the cores the rest of the run shares.
import * as os from 'node:os';

/** Cases a CLI-heavy suite runs at once: one more than the cores, so a core is busy while a case waits. */
export const CLI_CASES_AT_ONCE = Math.min(4, os.availableParallelism() + 1);

/** Wraps calls so that at most `n` run at once; the others start in the order they were made. */
export function limitConcurrency(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (fn) => {
    // a finished call hands its place to the next waiting one, so `running` only counts places taken
    if (running < n) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * What a suite's `beforeAll` would set up, made once on first use: jest starts `it.concurrent`
 * cases before the `beforeAll` hooks of their describe block have run (only the file's top-level
 * hooks come first), so concurrent cases await this instead.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/**
 * `it.concurrent`, with at most `n` of the cases declared through it running at once. Their
 * `beforeAll` hooks have not run when they start (see `once`): the cases set up what they use.
 */
export function concurrentCases(n: number): (name: string, fn: () => Promise<void>, timeout?: number) => void {
  const limit = limitConcurrency(n);
  return (name, fn, timeout) => it.concurrent(name, () => limit(fn), timeout);
}
