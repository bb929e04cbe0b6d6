import { fisherExact, mcnemarExact, newcombeDifference, newcombePairedDifference } from './exact-tests';

function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

/**
 * Fisher's two-sided p by brute-force enumeration in exact integer arithmetic: every table with the
 * observed margins has probability C(n1, i)·C(n2, K − i) / C(N, K); sum those whose numerator does
 * not exceed the observed table's. No floating point until the final division, so no tolerance.
 */
function bruteFisher(x1: number, n1: number, x2: number, n2: number): number {
  const K = x1 + x2;
  const weight = (i: number) => choose(n1, i) * choose(n2, K - i);
  const observed = weight(x1);
  let sum = 0n;
  for (let i = 0; i <= n1; i++) if (weight(i) <= observed) sum += weight(i);
  return Number((sum * 10n ** 18n) / choose(n1 + n2, K)) / 1e18;
}

/** McNemar's exact p from the binomial tail by hand: 2·Σ_{i ≤ min} C(n, i) / 2ⁿ, capped at 1 */
function bruteMcnemar(onlyB: number, onlyA: number): number {
  const n = onlyA + onlyB;
  let tail = 0n;
  for (let i = 0; i <= Math.min(onlyA, onlyB); i++) tail += choose(n, i);
  return Math.min(1, (2 * Number(tail)) / 2 ** n);
}

describe('fisherExact', () => {
  it.each([
    // R: fisher.test(TeaTasting) (the lady tasting tea, 3 of 4 right vs 1 of 4) → p-value = 0.4857
    [3, 4, 1, 4, 0.4857, 4],
    // R / Wikipedia's dieting example, matrix(c(1, 11, 9, 3), 2) → p-value = 0.002759
    [1, 10, 11, 14, 0.002759, 6],
    // all versus none: the two extreme tables of C(20, 10), p = 2 / 184756
    [10, 10, 0, 10, 2 / 184756, 12],
    // identical proportions: every table is at most as likely as the modal one
    [2, 4, 2, 4, 1, 12],
    [0, 3, 0, 3, 1, 12],
  ])('%i/%i vs %i/%i → p = %f (to %i places)', (x1, n1, x2, n2, p, places) => {
    expect(fisherExact(x1, n1, x2, n2)).toBeCloseTo(p, places);
  });

  it('matches brute-force enumeration for every table with up to 9 trials a side', () => {
    let checked = 0;
    for (let n1 = 1; n1 <= 9; n1++)
      for (let n2 = 1; n2 <= 9; n2++) {
        for (let x1 = 0; x1 <= n1; x1++)
          for (let x2 = 0; x2 <= n2; x2++) {
            const p = fisherExact(x1, n1, x2, n2)!;
            expect(Math.abs(p - bruteFisher(x1, n1, x2, n2))).toBeLessThan(1e-9);
            checked++;
          }
      }
    expect(checked).toBe(54 * 54); // Σ (n + 1) for n = 1..9, squared
  });

  it('matches brute force on larger, lopsided runs', () => {
    for (const [x1, n1, x2, n2] of [
      [40, 50, 30, 50],
      [95, 100, 80, 100],
      [3, 200, 12, 150],
      [150, 300, 170, 300],
    ]) {
      expect(Math.abs(fisherExact(x1, n1, x2, n2)! - bruteFisher(x1, n1, x2, n2))).toBeLessThan(1e-9);
    }
  });

  it('is symmetric in the two runs', () => {
    expect(fisherExact(2, 7, 6, 8)).toBeCloseTo(fisherExact(6, 8, 2, 7)!, 12);
  });

  it('has no p-value when a side has no trials', () => {
    expect(fisherExact(0, 0, 3, 5)).toBeNull();
    expect(fisherExact(3, 5, 0, 0)).toBeNull();
  });
});

describe('mcnemarExact', () => {
  it.each([
    [0, 6, 2 / 64], // 0.03125
    [6, 0, 2 / 64],
    [1, 5, (2 * (1 + 6)) / 64], // 0.21875
    [2, 8, (2 * (1 + 10 + 45)) / 1024], // 0.109375
    [0, 5, 2 / 32],
    [3, 3, 1],
    [0, 1, 1],
    [0, 0, 1],
  ])('onlyB=%i onlyA=%i → p = %f (hand-computed binomial tail)', (onlyB, onlyA, p) => {
    expect(mcnemarExact(onlyB, onlyA)).toBeCloseTo(p, 12);
  });

  it('matches the doubled binomial tail for every split of up to 30 discordant pairs', () => {
    for (let n = 1; n <= 30; n++)
      for (let b = 0; b <= n; b++) {
        expect(mcnemarExact(b, n - b)).toBeCloseTo(bruteMcnemar(b, n - b), 10);
      }
  });
});

describe('newcombeDifference', () => {
  // Newcombe (1998), "Interval estimation for the difference between independent proportions:
  // comparison of eleven methods", Statistics in Medicine 17, Table II, method 10 (p1 − p2).
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [5, 56, 0, 29, -0.0381, 0.1926],
    [0, 10, 0, 20, -0.1611, 0.2775],
    [0, 10, 0, 10, -0.2775, 0.2775],
    [10, 10, 0, 20, 0.6791, 1],
    [10, 10, 0, 10, 0.6075, 1],
  ])('%i/%i − %i/%i → [%f, %f]', (x1, n1, x2, n2, lo, hi) => {
    const ci = newcombeDifference(x1, n1, x2, n2)!;
    expect(ci.lo).toBeCloseTo(lo, 4);
    expect(ci.hi).toBeCloseTo(hi, 4);
  });

  it('mirrors when the runs swap', () => {
    const ab = newcombeDifference(3, 7, 6, 9)!;
    const ba = newcombeDifference(6, 9, 3, 7)!;
    expect(ab.lo).toBeCloseTo(-ba.hi, 12);
    expect(ab.hi).toBeCloseTo(-ba.lo, 12);
  });

  it('widens with confidence', () => {
    const c95 = newcombeDifference(3, 7, 6, 9)!;
    const c99 = newcombeDifference(3, 7, 6, 9, 0.99)!;
    expect(c99.lo).toBeLessThan(c95.lo);
    expect(c99.hi).toBeGreaterThan(c95.hi);
  });

  it('has no interval when a side has no trials', () => {
    expect(newcombeDifference(0, 0, 1, 2)).toBeNull();
  });
});

describe('newcombePairedDifference', () => {
  it("matches the published interval for Cavo et al.'s paired table", () => {
    // Fagerland, Lydersen & Laake, Statistical Analysis of Contingency Tables (2017), ch. 8: complete
    // response before (B here) and after (A) consolidation, [[59, 6], [16, 80]]: −0.0621 [−0.1186, −0.0046]
    const ci = newcombePairedDifference({ both: 59, onlyB: 6, onlyA: 16, neither: 80 })!;
    expect(ci.lo).toBeCloseTo(-0.1186, 4);
    expect(ci.hi).toBeCloseTo(-0.0046, 4);
  });

  it('mirrors when the runs swap, and is narrower than the unpaired interval when the pairs agree', () => {
    const t = { both: 6, onlyA: 3, onlyB: 0, neither: 11 };
    const ab = newcombePairedDifference(t)!;
    const ba = newcombePairedDifference({ ...t, onlyA: 0, onlyB: 3 })!;
    expect(ab.lo).toBeCloseTo(-ba.hi, 12);
    expect(ab.hi).toBeCloseTo(-ba.lo, 12);
    // the same margins, 6/20 against 9/20, as independent samples
    const unpaired = newcombeDifference(6, 20, 9, 20)!;
    expect(ab.hi - ab.lo).toBeLessThan(unpaired.hi - unpaired.lo);
  });

  it('covers 0 without discordant pairs, stays within [−1, 1], and has no interval without pairs', () => {
    const same = newcombePairedDifference({ both: 5, onlyA: 0, onlyB: 0, neither: 0 })!;
    expect(same.lo).toBeLessThan(0);
    expect(same.hi).toBeGreaterThanOrEqual(0);
    const all = newcombePairedDifference({ both: 0, onlyA: 5, onlyB: 0, neither: 0 })!;
    expect(all.lo).toBeGreaterThanOrEqual(-1);
    expect(all.hi).toBeLessThan(0);
    expect(newcombePairedDifference({ both: 0, onlyA: 0, onlyB: 0, neither: 0 })).toBeNull();
  });
});
