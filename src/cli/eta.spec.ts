import { estimateRemainingMs, formatEta, insertSorted, median } from './eta';

describe('formatEta: whole units, never 60 of the smaller one', () => {
  it.each([
    [undefined, '–'],
    [0, '0s'],
    [400, '0s'],
    [500, '1s'],
    [44_600, '45s'],
    [59_499, '59s'],
    [59_500, '1m00s'],
    [59_999, '1m00s'],
    [119_600, '2m00s'],
    [65_000, '1m05s'],
    [599_400, '9m59s'],
    [599_600, '10m'],
    [3_569_000, '59m'],
    [3_570_000, '1h00m'],
    [3_900_000, '1h05m'],
    [Number.POSITIVE_INFINITY, '–'],
    [-5, '0s'],
  ])('%p ms → %s', (ms, text) => {
    expect(formatEta(ms)).toBe(text);
  });
});

describe('estimateRemainingMs: median trial × waves left', () => {
  it.each([
    ['nothing finished yet', [], 10, 1, undefined],
    ['nothing left', [1000], 0, 4, 0],
    ['one at a time', [1000, 3000, 2000], 5, 1, 10_000],
    ['four at a time', [1000, 3000, 2000], 8, 4, 4000],
    ['fewer left than slots: one wave', [2000], 2, 4, 2000],
    ['even count: the middle two averaged', [1000, 2000, 3000, 10_000], 2, 1, 5000],
  ])('%s', (_name, finished, remaining, concurrency, expected) => {
    expect(estimateRemainingMs({ finishedMs: finished, remaining, concurrency })).toBe(expected);
  });

  it('holds steady when one trial is much slower or faster than the rest (a mean would jump)', () => {
    const finished = [1000, 1100, 900, 1000, 1050];
    const before = estimateRemainingMs({ finishedMs: finished, remaining: 20, concurrency: 2 })!;
    const afterSlow = estimateRemainingMs({ finishedMs: [...finished, 60_000], remaining: 19, concurrency: 2 })!;
    const afterFast = estimateRemainingMs({ finishedMs: [...finished, 10], remaining: 19, concurrency: 2 })!;
    // one trial less to go, and the typical trial barely moved: never more than the typical trial apart
    expect(Math.abs(afterSlow - before)).toBeLessThanOrEqual(1100);
    expect(Math.abs(afterFast - before)).toBeLessThanOrEqual(1100);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(Math.abs((mean([...finished, 60_000]) * 19) / 2 - (mean(finished) * 20) / 2)).toBeGreaterThan(50_000);
  });

  it('median', () => {
    expect(median([])).toBeUndefined();
    expect(median([3, 1, 2])).toBe(2);
  });
});

describe('insertSorted', () => {
  it('keeps the durations ascending, so the median is read without a sort per trial', () => {
    const xs: number[] = [];
    for (const v of [5, 1, 9, 1, 7, 3]) insertSorted(xs, v);
    expect(xs).toEqual([1, 1, 3, 5, 7, 9]);
    // median 4 ms, two waves left
    expect(estimateRemainingMs({ finishedMs: xs, remaining: 2, concurrency: 1, sorted: true })).toBe(8);
    expect(median(xs, true)).toBe(median([5, 1, 9, 1, 7, 3]));
  });
});
