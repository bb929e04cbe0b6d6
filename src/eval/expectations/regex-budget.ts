// Regex expectations run with a time budget. The text is a model's (or a file it wrote), and a
// pattern can backtrack for ever on the wrong text; JavaScript cannot interrupt a match on its own
// thread, so the match runs on a worker thread, and one that overruns is terminated. The judge stays
// synchronous (Atomics.wait), and the main thread is never held longer than the budget: Ctrl-C is
// handled within it. A linear-time engine was the first choice: the `re2` package needs Node 22 and
// a native build (or a prebuilt download) at install, and a pure-JS RE2 would change the JS
// semantics scenarios are written in (`\s`, lookarounds, back-references).
import { Worker } from 'node:worker_threads';

/** How long one regex test may run. */
export const REGEX_BUDGET_MS = 250;
/** A new worker's start, not counted against the pattern (the first test, and the one after a timeout). */
const WORKER_START_MS = 30_000;

export class RegexBudgetError extends Error {
  constructor(pattern: string, budgetMs: number, textLength: number) {
    super(`regex /${pattern}/ exceeded its ${budgetMs} ms budget on a ${textLength}-character text (it backtracks catastrophically)`);
    this.name = 'RegexBudgetError';
  }
}

// state[0]: 0 posted, 1 matching, 2 done; state[1]: 1 matched, 0 not, 2 the engine gave up
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ pattern, text, buffer }) => {
  const state = new Int32Array(buffer);
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
  try {
    Atomics.store(state, 1, new RegExp(pattern).test(text) ? 1 : 0);
  } catch {
    Atomics.store(state, 1, 2); // e.g. the engine's own stack limit
  }
  Atomics.store(state, 0, 2);
  Atomics.notify(state, 0);
});`;

let worker: Worker | undefined;

function matcher(): Worker {
  if (!worker) {
    const started = new Worker(WORKER_SOURCE, { eval: true });
    started.unref(); // never what keeps a process alive
    started.on('error', () => {
      if (worker === started) worker = undefined;
    });
    worker = started;
  }
  return worker;
}

/** Waits while state[0] is `value`; false when `ms` ran out first. */
function waitWhile(state: Int32Array, value: number, ms: number): boolean {
  const deadline = performance.now() + ms;
  while (Atomics.load(state, 0) === value) {
    const left = deadline - performance.now();
    if (left <= 0) return false;
    Atomics.wait(state, 0, value, left);
  }
  return true;
}

/** `new RegExp(pattern).test(text)`, or a RegexBudgetError once it has run `budgetMs`. */
export function regexTest(pattern: string, text: string, budgetMs = REGEX_BUDGET_MS): boolean {
  new RegExp(pattern); // a syntax error is thrown here, as before (compiling is never the slow part)
  const state = new Int32Array(new SharedArrayBuffer(8));
  const w = matcher();
  w.postMessage({ pattern, text, buffer: state.buffer });
  if (!waitWhile(state, 0, WORKER_START_MS)) {
    worker = undefined;
    void w.terminate();
    throw new Error(`the regex worker did not start within ${WORKER_START_MS} ms`);
  }
  if (!waitWhile(state, 1, budgetMs)) {
    worker = undefined;
    void w.terminate(); // interrupts the match; the next test gets a new worker
    throw new RegexBudgetError(pattern, budgetMs, text.length);
  }
  if (state[1] === 2) throw new Error(`regex /${pattern}/ could not be run on a ${text.length}-character text`);
  return state[1] === 1;
}
