import { setImmediate as nextTurn } from 'node:timers/promises';
import { startStaggered } from './staggered-start';

// Fake timers for the cap (maxStepMs): time passes only when the test says. startStaggered's turn
// of the event loop after each step (node:timers/promises) is not faked; each test waits for the
// start it expects, not for a number of turns.
beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

/** A worker factory that records each start (at the fake clock's time) and lets the test wait for the next one. */
function workers<T>(run: (i: number, underway: () => void) => Promise<T>) {
  const startedAt: number[] = [];
  let next: (() => void) | undefined;
  return {
    startedAt,
    start: (underway: () => void) => {
      const i = startedAt.push(Date.now()) - 1;
      next?.();
      return run(i, underway);
    },
    /** resolves once `n` workers have started */
    started: (n: number) =>
      new Promise<void>((resolve) => {
        next = () => startedAt.length >= n && resolve();
        next();
      }),
  };
}

describe('startStaggered', () => {
  it('starts each worker once the one before it is underway, and returns every result in order', async () => {
    const underways: Array<() => void> = [];
    const finish: Array<(v: string) => void> = [];
    const w = workers((_i, underway) => {
      underways.push(underway);
      return new Promise<string>((resolve) => finish.push(resolve));
    });
    const all = startStaggered(3, 60_000, w.start);
    expect(w.startedAt).toHaveLength(1);
    // the cap all but over, with turns of the event loop between the timers: no second start meanwhile
    await jest.advanceTimersByTimeAsync(59_999);
    expect(w.startedAt).toHaveLength(1);
    underways[0]();
    await w.started(2);
    underways[1]();
    await w.started(3);
    // each started as soon as the one before was underway, none by the cap
    expect(w.startedAt).toEqual([0, 59_999, 59_999]);
    finish.forEach((f, i) => f(`w${i}`));
    expect(await all).toEqual(['w0', 'w1', 'w2']);
  });

  it('starts the next worker when one ends (or fails) without saying it is underway', async () => {
    const w = workers(async (i) => {
      await nextTurn();
      if (i === 1) throw new Error('worker 1 failed');
      return i;
    });
    await expect(startStaggered(3, 60_000, w.start)).rejects.toThrow('worker 1 failed');
    expect(w.startedAt).toEqual([0, 0, 0]);
  });

  it('does not wait longer than maxStepMs for a worker whose first trial never says so', async () => {
    const finish: Array<() => void> = [];
    const w = workers(() => new Promise<void>((resolve) => finish.push(resolve)));
    const all = startStaggered(3, 20, w.start);
    await jest.advanceTimersByTimeAsync(19);
    expect(w.startedAt).toEqual([0]);
    await jest.advanceTimersByTimeAsync(1);
    await w.started(2);
    await jest.advanceTimersByTimeAsync(19);
    expect(w.startedAt).toEqual([0, 20]);
    await jest.advanceTimersByTimeAsync(1);
    await w.started(3);
    expect(w.startedAt).toEqual([0, 20, 40]);
    finish.forEach((f) => f());
    await all;
  });
});
