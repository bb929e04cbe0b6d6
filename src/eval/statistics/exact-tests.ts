// The exact tests and the difference interval behind run comparisons. Exact rather than
// chi-squared or Wald: cells hold 3 to 20 trials, far below where the approximations hold.
import { wilson } from './proportion';

// @stdlib's binomial test is about 1,100 module loads (a tenth of an eval's start-up CPU), its
// hypergeometric pmf 260: comparisons need them at a run's end, so they load on first use.
/* eslint-disable @typescript-eslint/no-require-imports */
const binomialTest = () => require('@stdlib/stats-binomial-test') as typeof import('@stdlib/stats-binomial-test');
const hypergeometricPmf = () =>
  require('@stdlib/stats-base-dists-hypergeometric-pmf') as typeof import('@stdlib/stats-base-dists-hypergeometric-pmf');
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Two-sided Fisher exact test of x1/n1 against x2/n2: the probability, given the margins, of the
 * tables no more likely than the observed one (R's fisher.test). The relative tolerance keeps
 * tables whose probability equals the observed one mathematically but not in floating point.
 * Null when either side has no trials.
 */
export function fisherExact(x1: number, n1: number, x2: number, n2: number): number | null {
  if (n1 === 0 || n2 === 0) return null;
  const N = n1 + n2;
  const K = x1 + x2;
  const pmfOf = hypergeometricPmf();
  const pmf = (x: number) => pmfOf(x, N, K, n1);
  const observed = pmf(x1) * (1 + 1e-7);
  let p = 0;
  for (let x = Math.max(0, n1 - (N - K)); x <= Math.min(n1, K); x++) {
    const px = pmf(x);
    if (px <= observed) p += px;
  }
  return Math.min(1, p);
}

/**
 * McNemar's exact test on paired outcomes: under no change each discordant pair is equally likely
 * to go either way, so onlyB ~ Binomial(onlyA + onlyB, ½), tested two-sided. No discordant pairs:
 * no evidence of change, p = 1.
 */
export function mcnemarExact(onlyB: number, onlyA: number): number {
  const n = onlyA + onlyB;
  if (n === 0) return 1;
  return Math.min(1, binomialTest()(onlyB, n, { p: 0.5, alternative: 'two-sided' }).pValue);
}

/**
 * Newcombe's hybrid score interval (1998, method 10) for p1 − p2 of independent proportions: it
 * combines the two Wilson intervals, so it stays within [−1, 1] and behaves at 0/n and n/n where
 * the Wald interval collapses to a point. Null when either side has no trials.
 */
export function newcombeDifference(x1: number, n1: number, x2: number, n2: number, confidence = 0.95): { lo: number; hi: number } | null {
  if (n1 === 0 || n2 === 0) return null;
  const a = wilson(x1, n1, confidence);
  const b = wilson(x2, n2, confidence);
  const p1 = a.rate!;
  const p2 = b.rate!;
  const d = p1 - p2;
  const lo = d - Math.sqrt((p1 - a.lo!) ** 2 + (b.hi! - p2) ** 2);
  const hi = d + Math.sqrt((a.hi! - p1) ** 2 + (p2 - b.lo!) ** 2);
  return { lo: Math.max(-1, lo), hi: Math.min(1, hi) };
}

/** Paired trials of two runs (same cell, same seed): how many passed in both, in one only, in neither. */
export interface PairedTable {
  both: number;
  onlyA: number;
  onlyB: number;
  neither: number;
}

/**
 * Newcombe's hybrid score interval for the difference of paired proportions pB − pA (1998,
 * "…based on paired data", method 10): the two marginal Wilson intervals combined with the
 * estimated correlation φ between them, φ's numerator (ad − bc) shrunk by n/2 towards 0 when
 * positive, as Newcombe does. Null without pairs.
 */
export function newcombePairedDifference(t: PairedTable, confidence = 0.95): { lo: number; hi: number } | null {
  const n = t.both + t.onlyA + t.onlyB + t.neither;
  if (n === 0) return null;
  const b = wilson(t.both + t.onlyB, n, confidence);
  const a = wilson(t.both + t.onlyA, n, confidence);
  const [pb, pa] = [b.rate!, a.rate!];
  const margins = (t.both + t.onlyB) * (t.onlyA + t.neither) * (t.both + t.onlyA) * (t.onlyB + t.neither);
  const cross = t.both * t.neither - t.onlyA * t.onlyB;
  const phi = margins === 0 ? 0 : (cross > n / 2 ? cross - n / 2 : cross >= 0 ? 0 : cross) / Math.sqrt(margins);
  const [dl1, du1, dl2, du2] = [pb - b.lo!, b.hi! - pb, pa - a.lo!, a.hi! - pa];
  const d = pb - pa;
  const lo = d - Math.sqrt(Math.max(0, dl1 ** 2 + du2 ** 2 - 2 * phi * dl1 * du2));
  const hi = d + Math.sqrt(Math.max(0, dl2 ** 2 + du1 ** 2 - 2 * phi * dl2 * du1));
  return { lo: Math.max(-1, lo), hi: Math.min(1, hi) };
}
