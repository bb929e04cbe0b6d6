import { pathologyTable } from './pathology-table';

const p = (successes: number, n: number, lo: number, hi: number) => ({ successes, n, rate: successes / n, lo, hi });

describe('pathologyTable', () => {
  it('is empty when no trial had one', () => {
    expect(pathologyTable({})).toEqual([]);
    expect(pathologyTable({ repeat_break: p(0, 10, 0, 0.28) })).toEqual([]);
  });

  it('one row per pathology seen, most frequent first, ties in report order, columns aligned', () => {
    const lines = pathologyTable({
      'nudge.tooShort': p(2, 26, 0.021, 0.241),
      max_iterations: p(6, 26, 0.11, 0.42),
      repeat_break: p(2, 26, 0.021, 0.241),
      context_overflow: p(1, 26, 0.007, 0.19),
    });
    expect(lines).toEqual([
      'Pathologies (judged trials with at least one):',
      'PATHOLOGY         TRIALS  SHARE  95% CI',
      'max_iterations      6/26  23.1%  [11.0%–42.0%]',
      'repeat_break        2/26   7.7%  [2.1%–24.1%]',
      'nudge.tooShort      2/26   7.7%  [2.1%–24.1%]',
      'context_overflow    1/26   3.8%  [0.7%–19.0%]',
    ]);
    for (const l of lines) expect(l.length).toBeLessThan(80);
  });
});
