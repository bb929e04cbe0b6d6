import { fireAt } from './wall-clock-timer';

// fake timers: the clock and the timers move only when the test moves them
beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

describe('fireAt', () => {
  it('fires once the given clock reaches the due instant, re-arming while that clock is still short of it', () => {
    // the clock falls 15 ms behind the event loop's once the timer is armed (as when the wait it
    // belongs to was stamped later): a plain 20 ms timer would fire while it still reads 15 ms short
    let lag = 0;
    const checks: number[] = [];
    const now = () => {
      const t = Date.now() - lag;
      checks.push(t);
      return t;
    };
    const dueAt = Date.now() + 20;
    const fired: number[] = [];
    fireAt(dueAt, () => fired.push(now()), now);
    lag = 15;
    jest.advanceTimersByTime(20);
    expect(fired).toEqual([]); // the event loop's 20 ms are over; the given clock reads 15 ms short
    jest.advanceTimersByTime(14);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(fired).toEqual([dueAt]);
    // armed, found 15 ms short and re-armed, found due, then read by the callback
    expect(checks).toEqual([dueAt - 20, dueAt - 15, dueAt, dueAt]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('fires on a later turn when the instant has already passed, and not at all once cancelled', () => {
    const fired: string[] = [];
    fireAt(Date.now() - 5, () => fired.push('past'));
    const cancelled = fireAt(Date.now() + 5, () => fired.push('cancelled'));
    cancelled.cancel();
    expect(fired).toEqual([]); // never synchronously
    jest.advanceTimersByTime(0);
    expect(fired).toEqual(['past']);
    jest.advanceTimersByTime(60_000);
    expect(fired).toEqual(['past']);
    expect(jest.getTimerCount()).toBe(0);
  });
});
