// Weight-based inference slots through the real provider: weights come from the stand-in's
// /api/show over HTTP, completions run against it, and the stand-in's log shows what the
// server actually had in flight.
// Spec: invariants 1 (weights, clamp + warning) and 2 (slot released on error/abort);
// behavioural examples "Weight-based slot queueing" and "Abort during slot wait";
// error case "Negative activeWeight".
// covers: ollama-provider#invariant-1, ollama-provider#invariant-2, ollama-provider#error-negative-activeweight
import type { SlotStatus } from '../../src/provider/llm-provider';
import { SlotWaitTimeoutError } from '../../src/provider/provider-errors';
import type { StandinRequestRecord } from '../../src/standin/standin-request-log';
import {
  chatRequests,
  cleanup,
  localModel,
  makeProvider,
  providerError,
  requestsTo,
  startStandin,
  tick,
  tracked,
  user,
} from './provider-test-kit';

afterEach(cleanup);

// weights by parameter size: <8B → 1, 8–14B → 2, ≥14B → 3
const CATALOG = [
  localModel('small:1b', { parameterSize: '1.2B', parallel: 8 }),
  localModel('mid:8b', { parameterSize: '8.0B', parallel: 8 }),
  localModel('big:14b', { parameterSize: '14.8B', parallel: 8 }),
];
const WEIGHT: Record<string, number> = { 'small:1b': 1, 'mid:8b': 2, 'big:14b': 3 };

/** Resolves with the first status a queued acquire reports (it is queued by then). */
function statusSink(): { statuses: SlotStatus[]; onStatus: (s: SlotStatus) => void; first: Promise<SlotStatus> } {
  const statuses: SlotStatus[] = [];
  let resolveFirst!: (s: SlotStatus) => void;
  const first = new Promise<SlotStatus>((r) => (resolveFirst = r));
  return {
    statuses,
    first,
    onStatus: (s) => {
      statuses.push({ ...s });
      if (statuses.length === 1) resolveFirst(s);
    },
  };
}

async function setup(maxParallel: number, script = { turns: { '*': [{ content: 'ok' }] }, loop: true }) {
  const { server, url } = await startStandin({ catalog: CATALOG, script });
  const t = makeProvider(url, { maxParallel });
  const limiter = t.provider.limiterFor(url);
  return { server, url, ...t, limiter };
}

describe('weight-based slot queueing (spec example; invariant 1)', () => {
  it('maxWeight=3, activeWeight=2: a weight-3 model queues until the active weight drops to 0, reporting its position; FIFO holds lighter requests behind it', async () => {
    const { provider, limiter, server } = await setup(3);
    expect(await provider.acquireSlot('mid:8b')).toBe(true);
    expect(limiter.activeWeight).toBe(2);

    const bigStatus = statusSink();
    const big = tracked(provider.acquireSlot('big:14b', undefined, bigStatus.onStatus));
    expect(await bigStatus.first).toEqual({ queuePosition: 1, queueLength: 1, activeWeight: 2, maxWeight: 3 });

    // weight 1 would fit (2 + 1 <= 3), but nobody overtakes the queue head
    const smallStatus = statusSink();
    const small = tracked(provider.acquireSlot('small:1b', undefined, smallStatus.onStatus));
    expect(await smallStatus.first).toEqual({ queuePosition: 2, queueLength: 2, activeWeight: 2, maxWeight: 3 });
    await tick();
    expect(big.settled()).toBe(false);
    expect(small.settled()).toBe(false);
    expect(limiter.activeWeight).toBe(2);

    provider.releaseSlot('mid:8b');
    await provider.idle();
    expect(await big.promise).toBe(true);
    expect(limiter.activeWeight).toBe(3);
    // the small request moved up to the head but still does not fit next to the big one
    expect(smallStatus.statuses.at(-1)).toEqual({ queuePosition: 1, queueLength: 1, activeWeight: 3, maxWeight: 3 });
    await tick();
    expect(small.settled()).toBe(false);

    provider.releaseSlot('big:14b');
    await provider.idle();
    expect(await small.promise).toBe(true);
    expect(limiter.activeWeight).toBe(1);
    provider.releaseSlot('small:1b');
    await provider.idle();
    expect(limiter.activeWeight).toBe(0);
    expect(limiter.queueLength).toBe(0);
    // the weights were read from the server's /api/show, once per model
    expect(
      requestsTo(server, '/api/show')
        .map((r) => r.model)
        .sort(),
    ).toEqual(['big:14b', 'mid:8b', 'small:1b']);
  });

  it('admits waiters strictly in arrival order, reporting each move up the queue', async () => {
    const { provider, limiter } = await setup(1);
    expect(await provider.acquireSlot('small:1b')).toBe(true);
    const order: string[] = [];
    const sinks = ['b', 'c', 'd'].map(() => statusSink());
    const waiters = ['b', 'c', 'd'].map((name, i) =>
      provider.acquireSlot('small:1b', undefined, sinks[i].onStatus).then((ok) => {
        order.push(name);
        return ok;
      }),
    );
    await Promise.all(sinks.map((s) => s.first));
    expect(sinks.map((s) => s.statuses[0].queuePosition)).toEqual([1, 2, 3]);
    for (let i = 0; i < 3; i++) {
      provider.releaseSlot('small:1b');
      await provider.idle();
      await tick();
    }
    expect(await Promise.all(waiters)).toEqual([true, true, true]);
    expect(order).toEqual(['b', 'c', 'd']);
    expect(sinks[2].statuses.map((s) => s.queuePosition)).toEqual([3, 2, 1]);
    expect(limiter.activeWeight).toBe(1);
  });

  it('a model heavier than the whole host is clamped to maxWeight and runs alone instead of deadlocking', async () => {
    const { provider, limiter } = await setup(2);
    expect(await provider.acquireSlot('big:14b')).toBe(true);
    expect(limiter.activeWeight).toBe(2);
    const small = tracked(provider.acquireSlot('small:1b'));
    await tick();
    expect(small.settled()).toBe(false);
    provider.releaseSlot('big:14b');
    await provider.idle();
    expect(await small.promise).toBe(true);
    expect(limiter.activeWeight).toBe(1);
  });

  it('under concurrent load activeWeight stays within [0, maxWeight], and so does the weight the server sees in flight', async () => {
    const { provider, limiter, server } = await setup(4, { turns: { '*': [{ content: 'one two three' }] }, loop: true });
    const models = ['small:1b', 'mid:8b', 'big:14b', 'small:1b', 'mid:8b', 'small:1b'];
    const seen: number[] = [];
    const sample = () => seen.push(limiter.activeWeight);
    await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const model = models[i % models.length];
        const ok = await provider.acquireSlot(model, undefined, sample);
        expect(ok).toBe(true);
        sample();
        try {
          await provider.complete({ model, messages: user(`request ${i}`) });
          sample();
        } finally {
          provider.releaseSlot(model);
          await provider.idle();
          sample();
        }
      }),
    );
    expect(Math.max(...seen)).toBeLessThanOrEqual(4);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0);
    expect(seen.some((w) => w >= 3)).toBe(true); // it did run requests side by side
    expect(limiter.activeWeight).toBe(0);
    expect(limiter.queueLength).toBe(0);

    // server side: the summed weight of generations overlapping in time never passed maxWeight
    const chats = chatRequests(server);
    expect(chats).toHaveLength(24);
    expect(maxWeightedOverlap(chats)).toBeLessThanOrEqual(4);
  });
});

/** Largest sum of weights of requests generating at the same time, from the stand-in's log. */
function maxWeightedOverlap(records: readonly StandinRequestRecord[]): number {
  const edges = records.flatMap((r) => [
    { at: r.slotAcquiredAt!, delta: WEIGHT[r.model!] },
    { at: r.slotReleasedAt!, delta: -WEIGHT[r.model!] },
  ]);
  // a release at the same instant as an acquire is processed first
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let current = 0;
  let max = 0;
  for (const e of edges) {
    current += e.delta;
    max = Math.max(max, current);
  }
  return max;
}

describe('abort during slot wait (spec example)', () => {
  it('removes the waiter, returns false and leaves activeWeight unchanged', async () => {
    const { provider, limiter } = await setup(2);
    expect(await provider.acquireSlot('mid:8b')).toBe(true);
    const controller = new AbortController();
    const sink = statusSink();
    const waiting = tracked(provider.acquireSlot('small:1b', controller.signal, sink.onStatus));
    await sink.first;
    expect(limiter.queueLength).toBe(1);

    controller.abort();
    expect(await waiting.promise).toBe(false);
    expect(limiter.queueLength).toBe(0);
    expect(limiter.activeWeight).toBe(2);

    // the aborted waiter holds nothing: after the release the host is empty, and the next request goes straight in
    provider.releaseSlot('mid:8b');
    await provider.idle();
    expect(limiter.activeWeight).toBe(0);
    expect(limiter.snapshot().inFlight).toBe(0);
    expect(await provider.acquireSlot('big:14b')).toBe(true);
    expect(limiter.activeWeight).toBe(2);
  });

  it('an already-aborted signal returns false without queueing', async () => {
    const { provider, limiter } = await setup(1);
    expect(await provider.acquireSlot('small:1b')).toBe(true);
    const statuses: SlotStatus[] = [];
    expect(await provider.acquireSlot('small:1b', AbortSignal.abort(), (s) => statuses.push(s))).toBe(false);
    expect(statuses).toEqual([]);
    expect(limiter.queueLength).toBe(0);
    expect(limiter.activeWeight).toBe(1);
  });

  it('an abort after the slot was granted changes nothing: the holder still releases it, exactly once', async () => {
    const { provider, limiter, logs } = await setup(1);
    const controller = new AbortController();
    expect(await provider.acquireSlot('small:1b', controller.signal)).toBe(true);
    controller.abort();
    await tick();
    expect(limiter.activeWeight).toBe(1);
    const next = tracked(provider.acquireSlot('small:1b'));
    await tick();
    expect(next.settled()).toBe(false);
    provider.releaseSlot('small:1b');
    await provider.idle();
    expect(await next.promise).toBe(true);
    provider.releaseSlot('small:1b');
    await provider.idle();
    expect(limiter.activeWeight).toBe(0);
    expect(logs.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('a wait longer than slotWaitTimeoutMs rejects with SlotWaitTimeoutError and leaves the queue', async () => {
    const { server, url } = await startStandin({ catalog: CATALOG });
    const { provider } = makeProvider(url, { maxParallel: 1, slotWaitTimeoutMs: 30 });
    const limiter = provider.limiterFor(url);
    expect(await provider.acquireSlot('small:1b')).toBe(true);
    const error = await provider.acquireSlot('small:1b').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(SlotWaitTimeoutError.isInstance(error)).toBe(true);
    expect(limiter.queueLength).toBe(0);
    expect(limiter.activeWeight).toBe(1);
    expect(server.requests.length).toBeGreaterThan(0);
  });
});

describe('negative activeWeight (spec error case; invariant 1)', () => {
  it('a release without an acquire is clamped to 0 with a warning, and does not add capacity', async () => {
    const { provider, limiter, logs } = await setup(1);
    provider.releaseSlot('small:1b');
    await provider.idle();
    expect(limiter.activeWeight).toBe(0);
    expect(logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual(
      expect.arrayContaining([expect.stringContaining('clamped to 0')]),
    );
    // still one slot, not two
    expect(await provider.acquireSlot('small:1b')).toBe(true);
    const second = tracked(provider.acquireSlot('small:1b'));
    await tick();
    expect(second.settled()).toBe(false);
    expect(limiter.activeWeight).toBe(1);
    provider.releaseSlot('small:1b');
    await provider.idle();
    expect(await second.promise).toBe(true);
  });
});

describe('release matches the acquire', () => {
  it('releases the weight granted at acquire time, whichever spelling of the model name the caller uses', async () => {
    const { server, url } = await startStandin({ catalog: [localModel('midmodel', { parameterSize: '8.0B' })] });
    const { provider, logs } = makeProvider(url, { maxParallel: 4 });
    const limiter = provider.limiterFor(url);
    expect(await provider.acquireSlot('midmodel')).toBe(true);
    expect(limiter.activeWeight).toBe(2);
    provider.releaseSlot('midmodel:latest');
    await provider.idle();
    expect(limiter.activeWeight).toBe(0);
    expect(logs.filter((l) => l.level === 'warn')).toEqual([]);
    expect(requestsTo(server, '/api/show')).toHaveLength(1);
  });
});

describe('slot always released (invariant 2)', () => {
  it('a completion that fails or is aborted keeps its slot until the caller releases it in finally; the next waiter then gets it', async () => {
    const { server, url } = await startStandin({
      catalog: CATALOG,
      script: {
        turns: {
          'small:1b': [{ content: 'fine', fault: { kind: 'http', status: 400, error: 'invalid request' } }],
          'mid:8b': [{ content: 'slow words that keep coming for a while', fault: { kind: 'stall', afterChunks: 1, ms: 10_000 } }],
        },
      },
    });
    const { provider, logs } = makeProvider(url, { maxParallel: 1 });
    const limiter = provider.limiterFor(url);

    const runGuarded = async (model: string, signal?: AbortSignal) => {
      expect(await provider.acquireSlot(model, signal)).toBe(true);
      try {
        await provider.complete({ model, messages: user('x'), signal });
      } finally {
        // the provider never releases on its own: still held while the error propagates
        expect(limiter.activeWeight).toBe(1);
        provider.releaseSlot(model);
        await provider.idle();
      }
    };

    const failed = await providerError(runGuarded('small:1b'));
    expect(failed.info.kind).toBe('bad_request');
    expect(limiter.activeWeight).toBe(0);

    const controller = new AbortController();
    const aborted = providerError(runGuarded('mid:8b', controller.signal));
    await server.waitForRequests(() => chatRequests(server).some((r) => r.model === 'mid:8b' && r.chunks > 0));
    const waiter = tracked(provider.acquireSlot('small:1b'));
    await tick();
    expect(waiter.settled()).toBe(false);
    controller.abort();
    expect((await aborted).info.kind).toBe('aborted');
    expect(await waiter.promise).toBe(true);
    expect(limiter.activeWeight).toBe(1);
    provider.releaseSlot('small:1b');
    await provider.idle();
    expect(limiter.activeWeight).toBe(0);
    expect(logs.filter((l) => l.level === 'warn')).toEqual([]);
  });
});
