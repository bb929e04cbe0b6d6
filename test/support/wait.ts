// Waiting in tests on what the code signals, not on elapsed time. A test waits for an event (an
// emitter's event, a child's output line) and checks its condition each time one comes; where the
// only signal is state nothing announces (a process gone from /proc, a row another process wrote),
// it polls that state here and nowhere else. The time limit is a guard against a hang, so that a
// failure names what never came: how long the thing should take is never assumed.
import type { ChildProcess } from 'node:child_process';
import type { EventEmitter } from 'node:events';

export interface WaitOptions {
  /** what is waited for, named in the error when it does not come */
  what: string;
  /** the guard against a hang (default 20 s, under the test timeout so that this error is the one reported) */
  timeoutMs?: number;
  /** more to say when it does not come (a child's stderr, what was seen) */
  context?: () => string;
}

const GUARD_MS = 20_000;
/** between looks at state that sends no signal: a cost, not a timing assumption */
const POLL_MS = 10;

function failure(opts: WaitOptions, why: string): Error {
  const context = opts.context?.();
  return new Error(`${why} while waiting for ${opts.what}${context ? `\n${context}` : ''}`);
}

/**
 * Resolves with `probe()`'s first value that is neither undefined nor false, looking now and again
 * every time one of `signals` ([emitter, event]) fires; rejects, naming what it waited for, when
 * `endedBy` fires first (nothing more can come) or the guard runs out.
 */
export function whenSignalled<T>(
  signals: Array<[EventEmitter, string]>,
  probe: () => T | undefined | false,
  opts: WaitOptions & { endedBy?: [EventEmitter, string] },
): Promise<T> {
  const first = probe();
  if (first !== undefined && first !== false) return Promise.resolve(first);
  return new Promise<T>((resolve, reject) => {
    // a probe that throws ends the wait with its error (not an uncaught one in an emitter)
    const look = (): T | undefined | false => {
      try {
        return probe();
      } catch (e) {
        done();
        reject(e as Error);
        return undefined;
      }
    };
    const check = () => {
      const value = look();
      if (value === undefined || value === false) return;
      done();
      resolve(value);
    };
    const ended = () => {
      const value = look();
      done();
      if (value !== undefined && value !== false) resolve(value);
      else reject(failure(opts, 'it ended'));
    };
    const guard = setTimeout(() => {
      done();
      reject(failure(opts, `${opts.timeoutMs ?? GUARD_MS} ms passed`));
    }, opts.timeoutMs ?? GUARD_MS);
    const done = () => {
      clearTimeout(guard);
      for (const [emitter, event] of signals) emitter.off(event, check);
      opts.endedBy?.[0].off(opts.endedBy[1], ended);
    };
    for (const [emitter, event] of signals) emitter.on(event, check);
    opts.endedBy?.[0].once(opts.endedBy[1], ended);
  });
}

/**
 * Resolves once `holds()` is true of a child process's output, looking at every chunk of stdout
 * and stderr as it comes (listeners added by whoever collects that output run first); rejects if
 * the child closes its output first. Its stderr's end is quoted in the error.
 */
export async function untilOutput(child: ChildProcess & { err?: () => string }, holds: () => boolean, opts: WaitOptions): Promise<void> {
  const context = opts.context ?? (() => (child.err ? `stderr: …${child.err().slice(-1_500)}` : ''));
  if (!holds() && child.stdout?.closed && child.stderr?.closed) throw failure({ ...opts, context }, 'its output had ended');
  await whenSignalled(
    [
      [child.stdout!, 'data'],
      [child.stderr!, 'data'],
    ],
    () => holds() || undefined,
    { ...opts, context, endedBy: [child, 'close'] },
  );
}

/**
 * Polls state that announces nothing (a process's exit seen from /proc, a row written by another
 * process, a file) until `probe()` gives a value other than undefined or false, and returns it.
 * Prefer an event (whenSignalled, untilOutput) wherever the code under test has one.
 */
export async function waitUntil<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, opts: WaitOptions): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? GUARD_MS);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw failure(opts, `${opts.timeoutMs ?? GUARD_MS} ms passed`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
