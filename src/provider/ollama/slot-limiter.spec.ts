import { SlotWaitTimeoutError } from '../provider-errors';
import { SlotLimiter, SlotLimiterRegistry } from './slot-limiter';
import type { SlotStatus } from './slot-limiter';

// promise outcomes without racing: record them and drain the microtask queue
const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

type Outcome = 'pending' | boolean | string;

function track(promise: Promise<boolean>): { outcome: () => Outcome } {
  let outcome: Outcome = 'pending';
  promise.then(
    (value) => (outcome = value),
    (error: Error) => (outcome = `${error.name}: ${error.message}`),
  );
  return { outcome: () => outcome };
}

function makeLimiter(maxWeight: number, extra: { defaultTimeoutMs?: number } = {}) {
  const warnings: Array<[string, Record<string, unknown> | undefined]> = [];
  const limiter = new SlotLimiter({
    maxWeight,
    onWarning: (message, details) => warnings.push([message, details]),
    ...extra,
  });
  return { limiter, warnings };
}

describe('SlotLimiter', () => {
  beforeEach(() => jest.useFakeTimers({ now: 10_000 }));
  afterEach(() => jest.useRealTimers());

  describe('admission', () => {
    it.each([
      { name: 'admits requests while they fit', max: 3, weights: [1, 1, 1], outcomes: [true, true, true], active: 3, queued: 0 },
      { name: 'queues a request that would exceed maxWeight', max: 3, weights: [2, 2], outcomes: [true, 'pending'], active: 2, queued: 1 },
      { name: 'queues a heavy request until the host is idle', max: 3, weights: [2, 3], outcomes: [true, 'pending'], active: 2, queued: 1 },
      { name: 'clamps a request heavier than maxWeight so it runs alone', max: 3, weights: [5], outcomes: [true], active: 3, queued: 0 },
      {
        name: 'does not admit an over-heavy request next to a running one',
        max: 3,
        weights: [1, 5],
        outcomes: [true, 'pending'],
        active: 1,
        queued: 1,
      },
      {
        name: 'fills a large host and queues the overflow',
        max: 8,
        weights: [3, 3, 3],
        outcomes: [true, true, 'pending'],
        active: 6,
        queued: 1,
      },
    ])('$name', async ({ max, weights, outcomes, active, queued }) => {
      const { limiter, warnings } = makeLimiter(max);
      const tracked = weights.map((weight) => track(limiter.acquire(weight)));
      await flush();
      expect(tracked.map((t) => t.outcome())).toEqual(outcomes);
      expect(limiter.activeWeight).toBe(active);
      expect(limiter.queueLength).toBe(queued);
      expect(warnings).toEqual([]);
    });

    it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects the invalid weight %p', (weight) => {
      const { limiter } = makeLimiter(3);
      expect(() => limiter.acquire(weight)).toThrow(RangeError);
      expect(() => limiter.release(weight)).toThrow(RangeError);
    });

    it.each([0, 0.5, Number.NaN])('refuses the invalid maxWeight %p', (maxWeight) => {
      expect(() => new SlotLimiter({ maxWeight })).toThrow(RangeError);
      expect(() => makeLimiter(3).limiter.setMaxWeight(maxWeight)).toThrow(RangeError);
    });
  });

  it('queues a weight-3 model behind active weight 2 and reports its position (spec scenario)', async () => {
    const { limiter } = makeLimiter(3);
    await limiter.acquire(2);
    const statuses: SlotStatus[] = [];
    const heavy = track(limiter.acquire(3, { onStatus: (s) => statuses.push(s) }));
    await flush();
    expect(heavy.outcome()).toBe('pending');
    expect(statuses).toEqual([{ queuePosition: 1, queueLength: 1, activeWeight: 2, maxWeight: 3 }]);

    limiter.release(2);
    await flush();
    expect(heavy.outcome()).toBe(true);
    expect(limiter.snapshot()).toEqual({ activeWeight: 3, maxWeight: 3, inFlight: 1, queue: [] });
  });

  it('serves strictly in arrival order so a light request cannot starve a waiting heavy one', async () => {
    const { limiter } = makeLimiter(3);
    const order: string[] = [];
    await limiter.acquire(2);
    const heavyStatus: SlotStatus[] = [];
    const lightStatus: SlotStatus[] = [];
    const heavy = limiter.acquire(3, { onStatus: (s) => heavyStatus.push(s) }).then(() => order.push('heavy'));
    // 2 + 1 would fit, but the light request arrives behind the waiting heavy one
    const light = limiter.acquire(1, { onStatus: (s) => lightStatus.push(s) }).then(() => order.push('light'));
    await flush();
    expect(order).toEqual([]);
    expect(lightStatus).toEqual([{ queuePosition: 2, queueLength: 2, activeWeight: 2, maxWeight: 3 }]);

    limiter.release(2);
    await flush();
    expect(order).toEqual(['heavy']);
    expect(lightStatus).toEqual([
      { queuePosition: 2, queueLength: 2, activeWeight: 2, maxWeight: 3 },
      { queuePosition: 1, queueLength: 1, activeWeight: 3, maxWeight: 3 },
    ]);

    limiter.release(3);
    await Promise.all([heavy, light]);
    expect(order).toEqual(['heavy', 'light']);
    expect(heavyStatus).toEqual([{ queuePosition: 1, queueLength: 1, activeWeight: 2, maxWeight: 3 }]);
    expect(limiter.activeWeight).toBe(1);
  });

  it('reports new positions to every waiter behind one that leaves', async () => {
    const { limiter } = makeLimiter(1);
    await limiter.acquire(1);
    const seen: Record<string, number[]> = { a: [], b: [], c: [] };
    const controllerA = new AbortController();
    for (const name of ['a', 'b', 'c']) {
      void limiter.acquire(1, {
        signal: name === 'a' ? controllerA.signal : undefined,
        onStatus: (s) => seen[name].push(s.queuePosition),
      });
    }
    controllerA.abort();
    await flush();
    expect(seen).toEqual({ a: [1], b: [2, 1], c: [3, 2] });
  });

  describe('abort', () => {
    it('removes an aborted waiter, resolves false and leaves activeWeight unchanged', async () => {
      const { limiter } = makeLimiter(3);
      await limiter.acquire(2);
      const controller = new AbortController();
      const waiter = track(limiter.acquire(3, { signal: controller.signal }));
      controller.abort();
      await flush();
      expect(waiter.outcome()).toBe(false);
      expect(limiter.snapshot()).toEqual({ activeWeight: 2, maxWeight: 3, inFlight: 1, queue: [] });
    });

    it('resolves false at once for an already-aborted signal without queueing or reporting', async () => {
      const { limiter } = makeLimiter(3);
      const onStatus = jest.fn();
      const signal = AbortSignal.abort();
      await expect(limiter.acquire(1, { signal, onStatus })).resolves.toBe(false);
      expect(onStatus).not.toHaveBeenCalled();
      expect(limiter.snapshot()).toEqual({ activeWeight: 0, maxWeight: 3, inFlight: 0, queue: [] });
    });

    it('admits lighter waiters that were blocked behind an aborted heavy head', async () => {
      const { limiter } = makeLimiter(3);
      await limiter.acquire(2);
      const controller = new AbortController();
      const heavy = track(limiter.acquire(3, { signal: controller.signal }));
      const light = track(limiter.acquire(1));
      controller.abort();
      await flush();
      expect([heavy.outcome(), light.outcome()]).toEqual([false, true]);
      expect(limiter.activeWeight).toBe(3);
    });

    it('ignores an abort that fires after admission', async () => {
      const { limiter } = makeLimiter(1);
      await limiter.acquire(1);
      const controller = new AbortController();
      const waiter = track(limiter.acquire(1, { signal: controller.signal }));
      limiter.release(1);
      await flush();
      controller.abort();
      await flush();
      expect(waiter.outcome()).toBe(true);
      expect(limiter.activeWeight).toBe(1);
    });
  });

  describe('wait timeout', () => {
    it('rejects with SlotWaitTimeoutError after timeoutMs and leaves the queue', async () => {
      const { limiter } = makeLimiter(1);
      await limiter.acquire(1);
      const waiter = track(limiter.acquire(1, { timeoutMs: 1_000 }));
      jest.advanceTimersByTime(999);
      await flush();
      expect(waiter.outcome()).toBe('pending');
      jest.advanceTimersByTime(1);
      await flush();
      expect(waiter.outcome()).toBe('SlotWaitTimeoutError: Timed out after 1000 ms waiting for an inference slot (weight 1)');
      expect(limiter.snapshot()).toEqual({ activeWeight: 1, maxWeight: 1, inFlight: 1, queue: [] });
    });

    it('uses defaultTimeoutMs and exposes weight and waitedMs on the error', async () => {
      const { limiter } = makeLimiter(2, { defaultTimeoutMs: 500 });
      await limiter.acquire(2);
      const pending = limiter.acquire(2).catch((error: unknown) => error);
      jest.advanceTimersByTime(500);
      const error = await pending;
      expect(SlotWaitTimeoutError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ weight: 2, waitedMs: 500 });
    });

    it('cancels the timer once admitted', async () => {
      const { limiter } = makeLimiter(1);
      await limiter.acquire(1);
      const waiter = track(limiter.acquire(1, { timeoutMs: 1_000 }));
      limiter.release(1);
      jest.advanceTimersByTime(5_000);
      await flush();
      expect(waiter.outcome()).toBe(true);
      expect(jest.getTimerCount()).toBe(0);
    });
  });

  describe('release accounting', () => {
    it('clamps a negative activeWeight to 0 and warns', () => {
      const { limiter, warnings } = makeLimiter(3);
      limiter.release(2);
      expect(limiter.activeWeight).toBe(0);
      expect(warnings).toEqual([
        ['release() without a matching acquire()', { weight: 2, activeWeight: 0 }],
        ['activeWeight went negative; clamped to 0', { activeWeight: -2, weight: 2 }],
      ]);
    });

    it('subtracts the weight actually granted even after maxWeight changed', async () => {
      const { limiter, warnings } = makeLimiter(3);
      await limiter.acquire(8);
      expect(limiter.activeWeight).toBe(3);
      limiter.setMaxWeight(8);
      limiter.release(8);
      expect(limiter.activeWeight).toBe(0);
      expect(warnings).toEqual([]);
    });
  });

  describe('setMaxWeight', () => {
    it('releases queued waiters that now fit, in order, and reports the new limit to the rest', async () => {
      const { limiter } = makeLimiter(1);
      await limiter.acquire(1);
      const statuses: SlotStatus[] = [];
      const waiters = [2, 2, 3].map((weight, i) =>
        track(limiter.acquire(weight, { onStatus: i === 2 ? (s) => statuses.push(s) : undefined })),
      );
      limiter.setMaxWeight(5);
      await flush();
      expect(waiters.map((w) => w.outcome())).toEqual([true, true, 'pending']);
      expect(limiter.activeWeight).toBe(5);
      expect(statuses).toEqual([
        { queuePosition: 3, queueLength: 3, activeWeight: 1, maxWeight: 1 },
        { queuePosition: 1, queueLength: 1, activeWeight: 5, maxWeight: 5 },
      ]);
    });

    it('never preempts running requests when lowered', async () => {
      const { limiter } = makeLimiter(3);
      await limiter.acquire(3);
      limiter.setMaxWeight(1);
      const waiter = track(limiter.acquire(1));
      await flush();
      expect(waiter.outcome()).toBe('pending');
      expect(limiter.activeWeight).toBe(3);
      limiter.release(3);
      await flush();
      expect(waiter.outcome()).toBe(true);
      expect(limiter.activeWeight).toBe(1);
    });
  });

  it('keeps working when an onStatus callback throws', async () => {
    const { limiter, warnings } = makeLimiter(1);
    await limiter.acquire(1);
    const waiter = track(
      limiter.acquire(1, {
        onStatus: () => {
          throw new Error('listener bug');
        },
      }),
    );
    limiter.release(1);
    await flush();
    expect(waiter.outcome()).toBe(true);
    expect(warnings).toEqual([['onStatus callback threw', { error: 'Error: listener bug' }]]);
  });

  it('snapshots the queue with positions, requested weights and wait times', async () => {
    const { limiter } = makeLimiter(3);
    await limiter.acquire(3);
    void limiter.acquire(5);
    jest.advanceTimersByTime(250);
    void limiter.acquire(1);
    jest.advanceTimersByTime(100);
    expect(limiter.snapshot()).toEqual({
      activeWeight: 3,
      maxWeight: 3,
      inFlight: 1,
      queue: [
        { position: 1, weight: 5, waitedMs: 350 },
        { position: 2, weight: 1, waitedMs: 100 },
      ],
    });
  });
});

describe('SlotLimiterRegistry', () => {
  it('keeps one limiter per host and snapshots them all', async () => {
    const created: string[] = [];
    const registry = new SlotLimiterRegistry((host) => {
      created.push(host);
      return new SlotLimiter({ maxWeight: host.includes('gpu') ? 8 : 1 });
    });
    const gpu = registry.get('http://gpu-server:11434');
    expect(registry.get('http://gpu-server:11434')).toBe(gpu);
    await registry.get('http://localhost:11434').acquire(1);

    expect(created).toEqual(['http://gpu-server:11434', 'http://localhost:11434']);
    expect(registry.hosts()).toEqual(['http://gpu-server:11434', 'http://localhost:11434']);
    expect(registry.has('http://other:11434')).toBe(false);
    expect(registry.snapshot()).toEqual({
      'http://gpu-server:11434': { activeWeight: 0, maxWeight: 8, inFlight: 0, queue: [] },
      'http://localhost:11434': { activeWeight: 1, maxWeight: 1, inFlight: 1, queue: [] },
    });
  });
});
