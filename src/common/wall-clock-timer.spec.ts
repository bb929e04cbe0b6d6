import { fireAt } from './wall-clock-timer';

describe('fireAt', () => {
  it('fires once the given clock reaches the due instant, re-arming while that clock is still short of it', async () => {
    // the clock falls 15 ms behind the event loop's once the timer is armed (as when the wait it
    // belongs to was stamped later): a plain 20 ms timer would fire while it still reads 15 ms short
    let lag = 0;
    let checks = 0;
    const now = () => (checks++, Date.now() - lag);
    const dueAt = Date.now() + 20;
    const fired = new Promise<number>((resolve) => fireAt(dueAt, () => resolve(now()), now));
    lag = 15;
    expect(await fired).toBeGreaterThanOrEqual(dueAt);
    expect(checks).toBeGreaterThanOrEqual(3); // armed, found short, re-armed
  });

  it('fires on a later turn when the instant has already passed, and not at all once cancelled', async () => {
    const fired: string[] = [];
    fireAt(Date.now() - 5, () => fired.push('past'));
    const cancelled = fireAt(Date.now() + 5, () => fired.push('cancelled'));
    cancelled.cancel();
    expect(fired).toEqual([]); // never synchronously
    await new Promise((r) => setTimeout(r, 30));
    expect(fired).toEqual(['past']);
  });
});
