// A proportion with its Wilson score interval: unlike the normal (Wald) interval it stays inside
// [0, 1] and keeps its coverage at the small trial counts an eval runs (3, 5, 10 per cell).
import type { Proportion } from './statistics-types';

// loaded on first use, as in exact-tests.ts: statistics come at a run's end, not at its start
/* eslint-disable @typescript-eslint/no-require-imports */
const normalQuantile = () =>
  require('@stdlib/stats-base-dists-normal-quantile') as typeof import('@stdlib/stats-base-dists-normal-quantile');
/* eslint-enable @typescript-eslint/no-require-imports */

/** The two-sided standard normal critical value for a confidence level (0.95 → 1.959964). */
export function zFor(confidence: number): number {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must lie in (0, 1), got ${confidence}`);
  return normalQuantile()(1 - (1 - confidence) / 2, 0, 1);
}

function assertCount(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer, got ${v}`);
}

/** Wilson score interval of successes / n; rate and bounds are null when n = 0 (nothing to estimate). */
export function wilson(successes: number, n: number, confidence = 0.95): Proportion {
  assertCount('successes', successes);
  assertCount('n', n);
  if (successes > n) throw new RangeError(`successes (${successes}) exceed n (${n})`);
  if (n === 0) return { successes, n, rate: null, lo: null, hi: null };
  const z = zFor(confidence);
  const p = successes / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  // at 0 and n the bound is exactly 0 or 1; floating point would otherwise give ±1e-17
  const lo = successes === 0 ? 0 : Math.max(0, centre - half);
  const hi = successes === n ? 1 : Math.min(1, centre + half);
  return { successes, n, rate: p, lo, hi };
}
