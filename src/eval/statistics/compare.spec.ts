import { compareRuns, comparisonSummaryLine } from './compare';
import { pairCell } from './compare-trials';
import { sameHash } from './match-cells';
import { cell } from './outcomes.test-kit';
import type { TrialOutcome } from './statistics-types';

const H = 'a'.repeat(64);
const T = 'b'.repeat(64);
/** a cell's trials with hashes (and seeds when given: trial i gets seed 100 + i) */
function hashed(scenario: string, statuses: string, over: Partial<TrialOutcome> & { seeded?: boolean } = {}): TrialOutcome[] {
  const { seeded, ...rest } = over;
  return cell(scenario, 'm', '', statuses).map((t) => ({
    ...t,
    scenarioHash: H,
    toolSchemaHash: T,
    ...(seeded ? { seed: 100 + t.trial } : {}),
    ...rest,
  }));
}
const rowOf = (r: ReturnType<typeof compareRuns>, key: string) => r.cells.find((c) => c.key === key)!;

describe('compareRuns', () => {
  it("tests independent runs unpaired: 5/5 → 0/5 is a regression by Fisher's exact test, p = 2/252 before correction", () => {
    const r = compareRuns(hashed('s', 'PPPPP'), hashed('s', 'FFFFF'));
    const c = rowOf(r, 's|m|');
    expect(c).toMatchObject({ status: 'compared', test: 'fisher_exact', difference: -1, verdict: 'regressed' });
    expect(c.pValue).toBeCloseTo(2 / 252, 12);
    // the cell, its model, its configuration and the run cover the same trials: one test, not four
    expect(r.family).toBe(1);
    expect(c.holm).toBeCloseTo(2 / 252, 12);
    expect(r.run.holm).toBeCloseTo(2 / 252, 12);
    expect(c.differenceCi!.hi).toBeLessThan(0);
    expect(r.gate).toEqual({
      fires: true,
      regressions: expect.arrayContaining([
        { level: 'run', key: 'run' },
        { level: 'cell', key: 's|m|' },
      ]),
    });
  });

  it("pairs trials only by seed: the same seeds give McNemar's exact test with the paired Newcombe interval", () => {
    const r = compareRuns(hashed('s', 'PPPPP', { seeded: true }), hashed('s', 'FFFFF', { seeded: true }));
    const c = rowOf(r, 's|m|');
    // 5 discordant pairs, all one way: p = 2 · (½)⁵ = 0.0625
    expect(c).toMatchObject({ test: 'mcnemar_exact', pairs: 5, discordant: { onlyB: 0, onlyA: 5 }, verdict: 'no_significant_change' });
    expect(c.pValue).toBeCloseTo(0.0625, 12);
    expect(c.differenceCi!.hi).toBeLessThan(0);
    // different seeds (runs with different run seeds) are independent draws: Fisher
    const other = hashed('s', 'FFFFF').map((t) => ({ ...t, seed: 900 + t.trial }));
    expect(rowOf(compareRuns(hashed('s', 'PPPPP', { seeded: true }), other), 's|m|').test).toBe('fisher_exact');
  });

  it('does not pair a trial judged on one side and errored on the other, but does leave out pairs errored on both', () => {
    expect(pairCell(hashed('s', 'PPE', { seeded: true }), hashed('s', 'PPP', { seeded: true }))).toBeNull();
    expect(pairCell(hashed('s', 'PFE', { seeded: true }), hashed('s', 'PPE', { seeded: true }))).toEqual({
      both: 1,
      onlyA: 0,
      onlyB: 1,
      neither: 0,
    });
  });

  it('reports errored and unjudged trials on both sides and never tests a cell with no judged trial on a side', () => {
    const r = compareRuns(hashed('s', 'FFF'), [
      ...hashed('s', 'EE'),
      ...hashed('s', 'P').map((t) => ({ ...t, trial: 3, status: 'unjudged' as const })),
    ]);
    const c = rowOf(r, 's|m|');
    expect(c).toMatchObject({
      status: 'not_compared',
      verdict: null,
      pValue: null,
      reason: 'no judged trial in B (2 errored, 1 unjudged)',
    });
    expect(c.a).toMatchObject({ trials: 3, failed: 3, errored: 0 });
    expect(c.b).toMatchObject({ trials: 3, passed: 0, failed: 0, errored: 2, unjudged: 1 });
    // nothing compared beneath the run: no verdict there either
    expect(r.run).toMatchObject({ status: 'not_compared', verdict: null });
    expect(r.family).toBe(0);
    expect(r.gate.fires).toBe(false);
  });

  it('computes a pass rate as passed / (passed + failed) on each side, with the errored counted apart', () => {
    const c = rowOf(compareRuns(hashed('s', 'PPF'), hashed('s', 'PPE')), 's|m|');
    expect([c.a.passRate.successes, c.a.passRate.n, c.b.passRate.successes, c.b.passRate.n]).toEqual([2, 3, 2, 2]);
    expect([c.a.errored, c.b.errored]).toEqual([0, 1]);
  });

  it('rolls up over matched cells only: cells only in B do not move the run, and have no verdict', () => {
    const same = ['x', 'y', 'z'].flatMap((s) => hashed(s, 'PPF'));
    const r = compareRuns(same, [...same, ...hashed('new1', 'FFF'), ...hashed('new2', 'FFF')]);
    expect(rowOf(r, 'new1|m|')).toMatchObject({ status: 'only_in_b', verdict: null, reason: 'ran in B only' });
    expect(r.run).toMatchObject({ status: 'compared', difference: 0, verdict: 'no_significant_change' });
    expect(r.run.b.trials).toBe(9);
    expect(r.gate.fires).toBe(false);
    expect(r.counts).toEqual({ regressed: 0, improved: 0, unchanged: 6, notCompared: 2 });
  });

  it('does not compare a cell whose scenario file or tool definitions changed, and names what changed', () => {
    const r = compareRuns(
      [...hashed('s', 'PPPPP'), ...hashed('t', 'PPPPP')],
      [...hashed('s', 'FFFFF', { scenarioHash: 'c'.repeat(64) }), ...hashed('t', 'PPPPP', { toolSchemaHash: 'd'.repeat(64) })],
    );
    expect(rowOf(r, 's|m|')).toMatchObject({ status: 'changed', changed: ['scenario'], reason: 'scenario file changed', verdict: null });
    expect(rowOf(r, 't|m|')).toMatchObject({ status: 'changed', changed: ['tool_schema'], reason: 'tool definitions changed' });
    expect(r.run.status).toBe('not_compared');
    expect(r.matchedCells).toBe(0);
  });

  it('takes a 16-character hash of an older run as the full hash it prefixes, and marks a cell without hashes unverified', () => {
    expect(sameHash(H.slice(0, 16), H)).toBe(true);
    expect(sameHash('c'.repeat(16), H)).toBe(false);
    const legacy = hashed('s', 'PP', { scenarioHash: H.slice(0, 16), toolSchemaHash: T.slice(0, 16) });
    expect(rowOf(compareRuns(legacy, hashed('s', 'PP')), 's|m|')).toMatchObject({ status: 'compared' });
    const bare = cell('s', 'm', '', 'PP');
    const c = rowOf(compareRuns(bare, hashed('s', 'PP')), 's|m|');
    expect(c).toMatchObject({ status: 'compared', unverified: true });
  });

  it('corrects for the family: one 5/5 → 0/5 cell among 24 is not a regression after Holm, and says so with p and q', () => {
    const names = Array.from({ length: 24 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    const a = names.flatMap((s) => hashed(s, 'PPPPP'));
    const b = names.flatMap((s, i) => hashed(s, i === 0 ? 'FFFFF' : 'PPPPP'));
    const r = compareRuns(a, b);
    const c = rowOf(r, 's00|m|');
    expect(c.pValue).toBeLessThan(0.05);
    // 24 cells + the run (its one model and one configuration cover the same cells: the same test)
    expect(r.family).toBe(25);
    expect(c.holm).toBeCloseTo((25 * 2) / 252, 12);
    expect(c.q).toBeCloseTo((25 * 2) / 252, 12);
    expect(c.verdict).toBe('no_significant_change');
    expect(r.gate.fires).toBe(false);
  });

  it('gives BH verdicts beside Holm ones, and a summary line with both when they differ', () => {
    // two cells 10/10 → 0/10 (p ≈ 1.1e-5), one 9/10 → 3/10 (p ≈ 0.0198) and two unchanged (p = 1),
    // with the run (its one model and configuration are the same test) 6 tests: the 9/10 cell is the
    // 4th smallest, Holm 0.0198 · 3 = 0.059 (not significant), BH 0.0198 · 6/4 = 0.030 (significant)
    const same = [...hashed('d', 'PPPPP'), ...hashed('e', 'PPPPP')];
    const a = [...hashed('a', 'PPPPPPPPPP'), ...hashed('b', 'PPPPPPPPPP'), ...hashed('c', 'PPPPPPPPPF'), ...same];
    const b = [...hashed('a', 'FFFFFFFFFF'), ...hashed('b', 'FFFFFFFFFF'), ...hashed('c', 'PPPFFFFFFF'), ...same];
    const r = compareRuns(a, b);
    const c = rowOf(r, 'c|m|');
    expect(c.verdict).toBe('no_significant_change');
    expect(c.fdrVerdict).toBe('regressed');
    expect(c.holm).toBeCloseTo(3 * c.pValue!, 12);
    expect(c.q).toBeCloseTo((6 / 4) * c.pValue!, 12);
    expect(r.counts).toEqual({ regressed: 5, improved: 0, unchanged: 3, notCompared: 0 });
    expect(comparisonSummaryLine(r)).toBe(
      '5 regressed, 0 improved, 3 unchanged, 0 not compared (family of 6 tests over cells, models, configurations and the run, Holm α=0.05; by Benjamini–Hochberg q<0.05: 6 regressed, 0 improved)',
    );
  });

  it('orders cells as the summaries do and keeps a row per model and configuration of either side', () => {
    const a = [...cell('s', 'm2', '', 'P'), ...cell('s', 'm1', 'k=1', 'P')];
    const b = [...cell('s', 'm1', 'k=1', 'P'), ...cell('s', 'm3', '', 'P')];
    const r = compareRuns(a, b);
    expect(r.cells.map((c) => [c.key, c.status])).toEqual([
      ['s|m1|k=1', 'compared'],
      ['s|m2|', 'only_in_a'],
      ['s|m3|', 'only_in_b'],
    ]);
    expect(r.models.map((m) => [m.key, m.status])).toEqual([
      ['m1', 'compared'],
      ['m2', 'not_compared'],
      ['m3', 'not_compared'],
    ]);
    expect(r.configs.map((m) => m.key)).toEqual(['', 'k=1']);
  });
});
