// A run's workers start one after another: each once the one before it has its first trial
// underway (set up, its session waiting for a slot, or over), or after `maxStepMs` at most. A trial's
// setup is CPU work on this one thread: eight workers started at once interleave their setups,
// and every first model request waits until all eight are done (about 50 ms at -c 8).
import { setImmediate as nextTurn } from 'node:timers/promises';

export async function startStaggered<T>(count: number, maxStepMs: number, start: (underway: () => void) => Promise<T>): Promise<T[]> {
  const runs: Array<Promise<T>> = [];
  for (let i = 0; i < count; i++) {
    let underway!: () => void;
    const ready = new Promise<void>((resolve) => (underway = resolve));
    const run = start(underway);
    runs.push(run);
    if (i === count - 1) break;
    let timer: NodeJS.Timeout | undefined;
    const capped = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxStepMs)));
    const over = run.then(
      () => undefined,
      () => undefined,
    );
    await Promise.race([ready, over, capped]);
    clearTimeout(timer);
    // then a turn of the event loop: a setup whose awaits all resolve at once runs as one chain of
    // microtasks, and would hold back the I/O (the first trial's requests) queued meanwhile
    await nextTurn();
  }
  return Promise.all(runs);
}
