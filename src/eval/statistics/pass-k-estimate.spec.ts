import { cell } from './outcomes.test-kit';
import { seededRandom } from '../../common/seeded-random';
import { passKEstimates } from './pass-k-estimate';
import { summarize } from './summarize';

describe('passKEstimates', () => {
  it('averages over the cells with at least k judged trials and counts the others as too few', () => {
    const { passHat, passAt } = passKEstimates(
      [
        { n: 3, c: 2 },
        { n: 3, c: 3 },
        { n: 2, c: 1 },
      ],
      [1, 3, 5],
    );
    expect(passHat['1']).toMatchObject({ value: (2 / 3 + 1 + 1 / 2) / 3, cells: 3, cellsTooFew: 0 });
    // C(2,3)/C(3,3) = 0 and 1; the cell of 2 judged trials cannot speak about 3
    expect(passHat['3']).toMatchObject({ value: 0.5, cells: 2, cellsTooFew: 1 });
    expect(passAt['3']).toMatchObject({ value: 1, cells: 2, cellsTooFew: 1 });
    expect(passHat['5']).toEqual({ value: null, cells: 0, cellsTooFew: 3, lo: null, hi: null });
  });

  it('gives the same interval for the same input, and one around the value', () => {
    const cells = [
      { n: 5, c: 4 },
      { n: 5, c: 1 },
      { n: 5, c: 5 },
      { n: 4, c: 2 },
    ];
    const a = passKEstimates(cells, [1, 3]);
    expect(passKEstimates(cells, [1, 3])).toEqual(a);
    // asking for other ks does not move the interval of this one
    expect(passKEstimates(cells, [3]).passHat['3']).toEqual(a.passHat['3']);
    for (const e of [a.passHat['1'], a.passHat['3'], a.passAt['3']]) {
      expect(e.lo!).toBeLessThanOrEqual(e.value!);
      expect(e.hi!).toBeGreaterThanOrEqual(e.value!);
      expect(e.hi! - e.lo!).toBeGreaterThan(0.05);
      expect(e.lo!).toBeGreaterThanOrEqual(0);
      expect(e.hi!).toBeLessThanOrEqual(1);
    }
  });

  it("resamples a single cell's trials, so one cell does not get a zero-width interval", () => {
    // 2 of 3 passed: c* ~ Binomial(3, 2/3), P(c* = 0) = 1/27 > 2.5%, P(c* = 3) = 8/27
    const { passHat } = passKEstimates([{ n: 3, c: 2 }], [1]);
    expect(passHat['1']).toEqual({ value: 2 / 3, cells: 1, cellsTooFew: 0, lo: 0, hi: 1 });
  });

  it('resamples cells: one cell that always passes and one that never does span 0 to 1', () => {
    const { passHat } = passKEstimates(
      [
        { n: 3, c: 3 },
        { n: 3, c: 0 },
      ],
      [3],
    );
    expect(passHat['3']).toMatchObject({ value: 0.5, lo: 0, hi: 1 });
    // all passing: nothing to resample differently
    expect(passKEstimates([{ n: 10, c: 10 }], [3]).passHat['3']).toMatchObject({ value: 1, lo: 1, hi: 1 });
  });

  it('stays finite for cells of thousands of trials', () => {
    const { passHat } = passKEstimates([{ n: 3000, c: 1500 }], [1]);
    expect(passHat['1'].value).toBe(0.5);
    expect(passHat['1'].lo).toBeGreaterThan(0.47);
    expect(passHat['1'].hi).toBeLessThan(0.53);
  });

  it('draws the same numbers from the same seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });
});

describe('pass^k in summaries', () => {
  it('counts a cell that lost a trial to an error or went unjudged as one with too few, visibly', () => {
    const unjudged = cell('u', 'm', '', 'PPP').map((t) => ({ ...t, status: 'unjudged' as const }));
    const s = summarize([...cell('a', 'm', '', 'PPP'), ...cell('b', 'm', '', 'PPE'), ...unjudged], { ks: [3] });
    expect(s.passHatKDetail['3']).toMatchObject({ value: 1, cells: 1, cellsTooFew: 2 });
    expect(s.passHatK['3']).toBe(1);
    expect(s.unjudged).toBe(3);
    expect(s.passRate).toMatchObject({ successes: 5, n: 5 });
  });
});
