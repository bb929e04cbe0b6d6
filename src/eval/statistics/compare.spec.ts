import { compareRuns, compareTrials, significantRegressions } from './compare';
import { cell } from './outcomes.test-kit';

describe('compareTrials', () => {
  it("uses McNemar's exact test when every judged trial pairs with the same trial of the other run", () => {
    // trials 1–6 pass in a and fail in b, 7–8 pass in both: 6 discordant pairs, all one way,
    // p = 2 · (½)⁶ = 0.03125 (Fisher on 8/8 vs 2/8 would give 0.00699: the test used matters)
    const c = compareTrials('x', cell('s', 'm', '', 'PPPPPPPP'), cell('s', 'm', '', 'FFFFFFPP'));
    expect(c).toMatchObject({ test: 'mcnemar_exact', discordant: { onlyB: 0, onlyA: 6 }, verdict: 'regressed' });
    expect(c.pValue).toBeCloseTo(0.03125, 12);
    expect(c.difference).toBeCloseTo(-0.75, 12);
    expect(c.a).toMatchObject({ successes: 8, n: 8 });
    expect(c.b).toMatchObject({ successes: 2, n: 8 });
    expect(c.differenceCi).toBeUndefined();
  });

  it('counts discordant pairs in both directions', () => {
    // pairs: 1 P→F, 2 F→P, 3 F→P, 4 P→P, 5 F→F: onlyB = 2, onlyA = 1, p = 2 · (1 + 3) / 8 capped at 1
    const c = compareTrials('x', cell('s', 'm', '', 'PFFPF'), cell('s', 'm', '', 'FPPPF'));
    expect(c).toMatchObject({ test: 'mcnemar_exact', discordant: { onlyB: 2, onlyA: 1 }, pValue: 1, verdict: 'no_significant_change' });
  });

  it("falls back to Fisher's exact test with a Newcombe interval when the trials do not pair", () => {
    // b's trials 101–110 have no partner among a's 1–10: 0/10 vs 10/10 → Fisher p = 2 / C(20, 10),
    // Newcombe's published interval for 10/10 − 0/10 is [0.6075, 1]
    const c = compareTrials(
      'x',
      cell('s', 'm', '', 'FFFFFFFFFF'),
      cell('s', 'm', '', 'PPPPPPPPPP').map((t) => ({ ...t, trial: t.trial + 100 })),
    );
    expect(c).toMatchObject({ test: 'fisher_exact', verdict: 'improved', difference: 1 });
    expect(c.pValue).toBeCloseTo(2 / 184756, 12);
    expect(c.differenceCi!.lo).toBeCloseTo(0.6075, 4);
    expect(c.differenceCi!.hi).toBe(1);
    expect(c.discordant).toBeUndefined();
  });

  it("falls back to Fisher's exact test when one run has trials the other lacks", () => {
    expect(compareTrials('x', cell('s', 'm', '', 'FFF'), cell('s', 'm', '', 'FFFP')).test).toBe('fisher_exact');
  });

  it('does not pair a trial judged in one run and errored in the other', () => {
    const c = compareTrials('x', cell('s', 'm', '', 'PPPE'), cell('s', 'm', '', 'PPPP'));
    expect(c.test).toBe('fisher_exact');
    expect(c.a).toMatchObject({ successes: 3, n: 3 });
  });

  it('leaves trials errored in both runs out of the pairing', () => {
    const c = compareTrials('x', cell('s', 'm', '', 'PPE'), cell('s', 'm', '', 'PFE'));
    expect(c).toMatchObject({ test: 'mcnemar_exact', discordant: { onlyB: 0, onlyA: 1 } });
  });

  it('does not pair trials of different cells that share an index', () => {
    const c = compareTrials('x', cell('s', 'm1', '', 'PP'), cell('s', 'm2', '', 'PP'));
    expect(c.test).toBe('fisher_exact');
  });

  it.each([
    // Fisher 9/10 vs 3/10: p = 0.01977 (brute-force enumeration, see exact-tests.spec)
    [0.05, 'regressed'],
    [0.01, 'no_significant_change'],
  ] as const)('at alpha %f calls 9/10 → 3/10 %s', (alpha, verdict) => {
    const a = cell('s', 'm', '', 'PPPPPPPPPF');
    const b = cell('s', 'm', '', 'PPPFFFFFFF').map((t) => ({ ...t, trial: t.trial + 10 }));
    const c = compareTrials('x', a, b, { alpha });
    expect(c.pValue).toBeCloseTo(0.019767, 5);
    expect(c.verdict).toBe(verdict);
  });

  it('gives no p-value and no verdict when one run has no judged trials of the group', () => {
    const c = compareTrials('x', [], cell('s', 'm', '', 'PPP'));
    expect(c).toMatchObject({ test: 'fisher_exact', pValue: null, difference: null, verdict: 'no_significant_change' });
    expect(c.a).toEqual({ successes: 0, n: 0, rate: null, lo: null, hi: null });
  });
});

describe('compareRuns', () => {
  const a = [...cell('s1', 'm1', '', 'PPPPPP'), ...cell('s2', 'm1', '', 'PPPPPP'), ...cell('s1', 'm2', 't=0', 'FFF')];
  const b = [
    ...cell('s1', 'm1', '', 'FFFFFF'),
    ...cell('s2', 'm1', '', 'PPPPPP'),
    ...cell('s1', 'm2', 't=0', 'PPP'),
    ...cell('s3', 'm2', 't=0', 'PP'),
  ];
  const result = compareRuns(a, b);

  it('compares every cell present in either run, in summary order', () => {
    expect(result.cells.map((c) => [c.key, c.test, c.verdict])).toEqual([
      ['s1|m1|', 'mcnemar_exact', 'regressed'], // 6 discordant one way: p = 0.03125
      ['s1|m2|t=0', 'mcnemar_exact', 'no_significant_change'], // 3 discordant: p = 0.25
      ['s2|m1|', 'mcnemar_exact', 'no_significant_change'],
      ['s3|m2|t=0', 'fisher_exact', 'no_significant_change'], // new in b: nothing to compare with
    ]);
    expect(result.cells[0].pValue).toBeCloseTo(0.03125, 12);
    expect(result.cells[1].pValue).toBeCloseTo(0.25, 12);
    expect(result.cells[3].pValue).toBeNull();
  });

  it('pairs across cells within a model and configuration roll-up', () => {
    expect(result.models.map((c) => [c.key, c.test, c.discordant])).toEqual([
      ['m1', 'mcnemar_exact', { onlyB: 0, onlyA: 6 }],
      // m2 gained s3 in b: its two trials have no partner, so Fisher over 0/3 vs 5/5
      ['m2', 'fisher_exact', undefined],
    ]);
    expect(result.models[0].verdict).toBe('regressed');
    expect(result.configs.map((c) => c.key)).toEqual(['', 't=0']);
    expect(result.run).toMatchObject({ key: 'run', test: 'fisher_exact', a: { successes: 12, n: 15 }, b: { successes: 11, n: 17 } });
  });

  it('lists significant regressions for gating, run level first, and can limit the levels', () => {
    expect(significantRegressions(result).map((r) => [r.level, r.key])).toEqual([
      ['config', ''],
      ['model', 'm1'],
      ['cell', 's1|m1|'],
    ]);
    expect(significantRegressions(result, { levels: ['run', 'model'] }).map((r) => r.key)).toEqual(['m1']);
    expect(significantRegressions(compareRuns(a, a))).toEqual([]);
  });

  it('reports improvements the other way round', () => {
    const back = compareRuns(b, a);
    expect(back.cells[0]).toMatchObject({ key: 's1|m1|', verdict: 'improved', discordant: { onlyB: 6, onlyA: 0 } });
    expect(significantRegressions(back).map((r) => r.key)).not.toContain('s1|m1|');
  });
});
