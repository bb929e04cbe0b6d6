import { startStaggered } from './staggered-start';

// a few turns of the event loop (startStaggered yields one after each worker is underway)
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('startStaggered', () => {
  it('starts each worker once the one before it is underway, and returns every result in order', async () => {
    const started: number[] = [];
    const underways: Array<() => void> = [];
    const finish: Array<(v: string) => void> = [];
    const all = startStaggered(3, 60_000, (underway) => {
      started.push(started.length);
      underways.push(underway);
      return new Promise<string>((resolve) => finish.push(resolve));
    });
    await tick();
    expect(started).toEqual([0]);
    underways[0]();
    await tick();
    expect(started).toEqual([0, 1]);
    underways[1]();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finish.forEach((f, i) => f(`w${i}`));
    expect(await all).toEqual(['w0', 'w1', 'w2']);
  });

  it('starts the next worker when one ends (or fails) without saying it is underway', async () => {
    const started: number[] = [];
    const all = startStaggered(3, 60_000, async () => {
      const i = started.push(started.length) - 1;
      await tick();
      if (i === 1) throw new Error('worker 1 failed');
      return i;
    });
    await expect(all).rejects.toThrow('worker 1 failed');
    expect(started).toEqual([0, 1, 2]);
  });

  it('does not wait longer than maxStepMs for a worker whose first trial never says so', async () => {
    const startedAt: number[] = [];
    const t0 = Date.now();
    const finish: Array<() => void> = [];
    const all = startStaggered(3, 20, () => {
      startedAt.push(Date.now() - t0);
      return new Promise<void>((resolve) => finish.push(resolve));
    });
    // two steps of 20 ms; a loaded machine (CI) may fire them late, so wait for them, within bounds
    for (const deadline = Date.now() + 5_000; startedAt.length < 3 && Date.now() < deadline;) await tick();
    expect(startedAt).toHaveLength(3);
    expect(startedAt[2]).toBeGreaterThanOrEqual(30);
    finish.forEach((f) => f());
    await all;
  });
});
