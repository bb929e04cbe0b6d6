import { wilson, zFor } from './proportion';

// Wilson score intervals without continuity correction, published in Newcombe (1998),
// "Two-sided confidence intervals for the single proportion", Statistics in Medicine 17, Table II (method 3).
const newcombeTable: Array<[number, number, number, number]> = [
  [81, 263, 0.2553, 0.3662],
  [15, 148, 0.0624, 0.1605],
  [0, 20, 0.0, 0.1611],
  [1, 29, 0.0061, 0.1718],
];

// the textbook two-sided critical values of the standard normal
const Z = { 0.95: 1.959963984540054, 0.99: 2.5758293035489004, 0.9: 1.6448536269514722 };

describe('wilson', () => {
  it.each(newcombeTable)("reproduces Newcombe's published interval for %i/%i", (x, n, lo, hi) => {
    const p = wilson(x, n);
    expect(p.successes).toBe(x);
    expect(p.n).toBe(n);
    expect(p.rate).toBeCloseTo(x / n, 12);
    expect(p.lo).toBeCloseTo(lo, 4);
    expect(p.hi).toBeCloseTo(hi, 4);
  });

  // The Wilson bounds are the p0 at which the score statistic |p̂ − p0| / √(p0(1 − p0)/n) equals z:
  // an independent characterisation of the interval, checked at several confidence levels.
  it.each([
    [2, 3, 0.95],
    [5, 10, 0.95],
    [1, 1000, 0.95],
    [999, 1000, 0.95],
    [7, 12, 0.99],
    [7, 12, 0.9],
    [3, 5, 0.99],
  ] as const)('bounds of %i/%i at %f invert the score test', (x, n, conf) => {
    const { lo, hi } = wilson(x, n, conf);
    const score = (p0: number) => Math.abs(x / n - p0) / Math.sqrt((p0 * (1 - p0)) / n);
    expect(score(lo!)).toBeCloseTo(Z[conf], 8);
    expect(score(hi!)).toBeCloseTo(Z[conf], 8);
    expect(lo!).toBeLessThan(x / n);
    expect(hi!).toBeGreaterThan(x / n);
  });

  it('pins the bound to exactly 0 or 1 at the edges (no −1e-17)', () => {
    expect(wilson(0, 3)).toEqual({ successes: 0, n: 3, rate: 0, lo: 0, hi: expect.closeTo(0.5615, 4) });
    expect(wilson(3, 3)).toEqual({ successes: 3, n: 3, rate: 1, lo: expect.closeTo(0.4385, 4), hi: 1 });
  });

  it('is symmetric: the interval of n − x is the mirror of the interval of x', () => {
    const a = wilson(4, 11);
    const b = wilson(7, 11);
    expect(a.lo!).toBeCloseTo(1 - b.hi!, 12);
    expect(a.hi!).toBeCloseTo(1 - b.lo!, 12);
  });

  it('returns nulls when there is nothing to estimate (n = 0)', () => {
    expect(wilson(0, 0)).toEqual({ successes: 0, n: 0, rate: null, lo: null, hi: null });
  });

  it.each([
    [-1, 3],
    [4, 3],
    [1.5, 3],
    [1, 2.5],
  ])('rejects impossible counts %p/%p', (x, n) => {
    expect(() => wilson(x, n)).toThrow(RangeError);
  });

  it.each([[0], [1], [1.2], [-0.5]])('rejects confidence %p outside (0, 1)', (c) => {
    expect(() => zFor(c)).toThrow(RangeError);
  });

  it.each(Object.entries(Z))('uses the normal quantile for confidence %s', (conf, z) => {
    expect(zFor(Number(conf))).toBeCloseTo(z, 10);
  });
});
