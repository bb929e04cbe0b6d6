// Overhead of the SlotLimiter itself (no HTTP, no model): how many acquire/release pairs per
// second it sustains uncontended, with many concurrent waiters, with queue-position listeners,
// and with waiters aborting. Medians of repeated runs after a warm-up. The throughput-vs-ideal
// bench against the stand-in lives elsewhere.

import { performance } from 'node:perf_hooks';
import { SlotLimiter } from '../src/provider/ollama/slot-limiter';
import type { BenchFigure } from './run-benchmarks';

export type { BenchFigure };

export interface SlotLimiterBenchOptions {
  /** repetitions per figure (the median is reported) */
  runs?: number;
  /** concurrent waiters in the contended scenarios */
  waiters?: number;
  /** acquire/release pairs in the uncontended scenario */
  iterations?: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

// deterministic mix of model weights: mostly small models, some 8B, a few 14B+
const weightAt = (i: number): number => [1, 1, 2, 1, 3, 2, 1][i % 7];

async function timeOps(ops: number, body: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await body();
  const seconds = (performance.now() - started) / 1_000;
  return ops / seconds;
}

async function uncontended(iterations: number): Promise<number> {
  const limiter = new SlotLimiter({ maxWeight: 8 });
  return timeOps(iterations, async () => {
    for (let i = 0; i < iterations; i++) {
      await limiter.acquire(1);
      limiter.release(1);
    }
  });
}

async function contended(waiters: number, withListeners: boolean): Promise<number> {
  const limiter = new SlotLimiter({ maxWeight: 8 });
  const onStatus = withListeners ? (): void => undefined : undefined;
  return timeOps(waiters, async () => {
    await Promise.all(
      Array.from({ length: waiters }, async (_, i) => {
        const weight = weightAt(i);
        await limiter.acquire(weight, { onStatus });
        // hold the slot across a turn of the event loop's microtasks, like a real request would
        await Promise.resolve();
        limiter.release(weight);
      }),
    );
  });
}

async function abortChurn(waiters: number): Promise<number> {
  const limiter = new SlotLimiter({ maxWeight: 8 });
  return timeOps(waiters, async () => {
    const controllers = Array.from({ length: waiters }, () => new AbortController());
    const requests = controllers.map(async (controller, i) => {
      const weight = weightAt(i);
      if (await limiter.acquire(weight, { signal: controller.signal })) {
        await Promise.resolve();
        limiter.release(weight);
      }
    });
    // every other waiter gives up while queued
    controllers.forEach((controller, i) => i % 2 === 1 && controller.abort());
    await Promise.all(requests);
  });
}

async function medianOf(runs: number, measure: () => Promise<number>): Promise<number> {
  await measure(); // warm-up, not counted
  const results: number[] = [];
  for (let i = 0; i < runs; i++) results.push(await measure());
  return Math.round(median(results));
}

export async function benchSlotLimiterOverhead(options: SlotLimiterBenchOptions = {}): Promise<BenchFigure[]> {
  const runs = options.runs ?? 7;
  const waiters = options.waiters ?? 2_000;
  const iterations = options.iterations ?? 100_000;
  const common = `median of ${runs} runs, maxWeight 8`;
  return [
    {
      name: 'slot-limiter.uncontended',
      value: await medianOf(runs, () => uncontended(iterations)),
      unit: 'ops/s',
      note: `${iterations} sequential acquire(1)+release pairs; ${common}`,
    },
    {
      name: 'slot-limiter.contended',
      value: await medianOf(runs, () => contended(waiters, false)),
      unit: 'ops/s',
      note: `${waiters} concurrent waiters, weights 1–3; ${common}`,
    },
    {
      name: 'slot-limiter.contended-with-status',
      value: await medianOf(runs, () => contended(waiters, true)),
      unit: 'ops/s',
      note: `as contended, every waiter with an onStatus listener (position updates are O(queue) per admission); ${common}`,
    },
    {
      name: 'slot-limiter.abort-churn',
      value: await medianOf(runs, () => abortChurn(waiters)),
      unit: 'ops/s',
      note: `${waiters} concurrent waiters, half aborted while queued; ${common}`,
    },
  ];
}

if (require.main === module) {
  benchSlotLimiterOverhead().then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
