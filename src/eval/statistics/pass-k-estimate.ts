// pass^k and pass@k over a group of cells, with how many cells they rest on and a 95% interval.
//
// A cell speaks about k trials only with at least k judged (passed or failed) trials; the others —
// an errored or unjudged trial leaves its cell short — are counted as `cellsTooFew`, never dropped
// silently. The interval is a two-stage percentile bootstrap (cells resampled with replacement,
// then each resampled cell's judged trials), 2,000 resamples from a fixed-seed PRNG: the same input
// always gives the same interval. Resampling the trials too keeps a single cell's interval honest
// (a bootstrap over cells alone gives one cell a zero-width interval).
import { passAtK, passHatK } from './pass-at-k';
import { seededRandom } from '../../common/seeded-random';

export interface PassKEstimate {
  /** the mean over the cells with at least k judged trials; null when there is none */
  value: number | null;
  /** cells it rests on: those with at least k judged trials */
  cells: number;
  /** cells with fewer than k judged trials, left out of the value */
  cellsTooFew: number;
  /** percentile bootstrap interval; null without a value */
  lo: number | null;
  hi: number | null;
}

/** judged trials (n) and passes (c) of one cell */
export interface CellCounts {
  n: number;
  c: number;
}

export const BOOTSTRAP_RESAMPLES = 2000;
const SEED = 0x10c4e;

/** the cumulative Binomial(n, c/n) distribution: resampling n trials with replacement draws c* from it */
function binomialCdf({ n, c }: CellCounts): number[] {
  const p = c / n;
  const pmf = new Array<number>(n + 1).fill(0);
  if (p === 0 || p === 1) pmf[c] = 1;
  else {
    // from the mode outwards, then normalised: (1 − p)^n alone underflows for n in the thousands
    const m = Math.floor((n + 1) * p) > n ? n : Math.floor((n + 1) * p);
    pmf[m] = 1;
    for (let i = m; i < n; i++) pmf[i + 1] = (pmf[i] * (n - i) * p) / ((i + 1) * (1 - p));
    for (let i = m; i > 0; i--) pmf[i - 1] = (pmf[i] * i * (1 - p)) / ((n - i + 1) * p);
  }
  const total = pmf.reduce((s, x) => s + x, 0);
  let acc = 0;
  return pmf.map((x) => (acc += x / total));
}

function draw(cdf: readonly number[], u: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** linear interpolation between order statistics (type 7) */
function quantile(sorted: Float64Array, q: number): number {
  const h = (sorted.length - 1) * q;
  const i = Math.floor(h);
  return i + 1 < sorted.length ? sorted[i] + (h - i) * (sorted[i + 1] - sorted[i]) : sorted[i];
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * pass^k and pass@k for each k over these cells (give them in a fixed order, e.g. by cell key, for
 * the interval to be reproducible).
 */
export function passKEstimates(
  cells: readonly CellCounts[],
  ks: readonly number[],
  confidence = 0.95,
): { passHat: Record<string, PassKEstimate>; passAt: Record<string, PassKEstimate> } {
  const passHat: Record<string, PassKEstimate> = {};
  const passAt: Record<string, PassKEstimate> = {};
  for (const k of ks) {
    const enough = cells.filter((x) => x.n >= k);
    const counts = { cells: enough.length, cellsTooFew: cells.length - enough.length };
    if (!enough.length) {
      passHat[k] = { value: null, ...counts, lo: null, hi: null };
      passAt[k] = { ...passHat[k] };
      continue;
    }
    // per cell, each estimator for every possible c*, looked up while resampling
    const hatOf = enough.map(({ n }) => Array.from({ length: n + 1 }, (_, c) => passHatK(n, c, k)!));
    const atOf = enough.map(({ n }) => Array.from({ length: n + 1 }, (_, c) => passAtK(n, c, k)!));
    const cdfs = enough.map(binomialCdf);
    const random = seededRandom(SEED + k);
    const hats = new Float64Array(BOOTSTRAP_RESAMPLES);
    const ats = new Float64Array(BOOTSTRAP_RESAMPLES);
    for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
      let hat = 0;
      let at = 0;
      for (let j = 0; j < enough.length; j++) {
        const i = Math.floor(random() * enough.length);
        const c = draw(cdfs[i], random());
        hat += hatOf[i][c];
        at += atOf[i][c];
      }
      hats[b] = hat / enough.length;
      ats[b] = at / enough.length;
    }
    const tail = (1 - confidence) / 2;
    const estimate = (values: number[], resampled: Float64Array): PassKEstimate => {
      resampled.sort(); // numeric, for a typed array
      return { value: mean(values), ...counts, lo: quantile(resampled, tail), hi: quantile(resampled, 1 - tail) };
    };
    passHat[k] = estimate(
      enough.map((x, i) => hatOf[i][x.c]),
      hats,
    );
    passAt[k] = estimate(
      enough.map((x, i) => atOf[i][x.c]),
      ats,
    );
  }
  return { passHat, passAt };
}
