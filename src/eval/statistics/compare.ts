// Comparison of two sets of trials (a: the baseline, b: the candidate) per cell, model,
// configuration and for the whole run, in the spirit of Braintrust's improvements/regressions
// against a base experiment, but with verdicts that survive many cells: only matched cells are
// tested, the roll-ups are over those cells alone, and every p-value is corrected over the family
// of rows tested (Holm for the verdicts and the gate, Benjamini–Hochberg q-values beside them).
import { testGroup, sideOf } from './compare-trials';
import type { ComparisonCounts, ComparisonRow, ComparisonSide, ComparisonVerdict, RunComparison } from './comparison-types';
import { groupTrials, keyAt, type GroupLevel } from './grouping';
import { matchCells, type MatchedCell } from './match-cells';
import { benjaminiHochberg, holmAdjust } from './multiplicity';
import type { TrialOutcome } from './statistics-types';

export type { ComparisonRow, RunComparison } from './comparison-types';
export { comparisonSummaryLine } from './comparison-summary';

export interface CompareOptions {
  /** family-wise significance level of the verdicts and the gate; default 0.05 */
  alpha?: number;
  /** of the intervals; default 0.95 */
  confidence?: number;
}

type Cells = ReadonlyArray<Pick<MatchedCell, 'a' | 'b' | 'unverified'>>;

function untested(level: GroupLevel, key: string, status: ComparisonRow['status'], a: ComparisonSide, b: ComparisonSide): ComparisonRow {
  return {
    level,
    key,
    status,
    a,
    b,
    test: null,
    difference: null,
    differenceCi: null,
    pValue: null,
    holm: null,
    q: null,
    verdict: null,
    fdrVerdict: null,
  };
}

const judgedCount = (s: ComparisonSide) => s.passed + s.failed;

function noJudged(side: 'A' | 'B', s: ComparisonSide): string {
  const other = [s.errored ? `${s.errored} errored` : '', s.unjudged ? `${s.unjudged} unjudged` : ''].filter(Boolean).join(', ');
  return `no judged trial in ${side}${other ? ` (${other})` : ''}`;
}

function cellRow(c: MatchedCell, confidence: number): ComparisonRow {
  const [a, b] = [sideOf(c.a, confidence), sideOf(c.b, confidence)];
  if (c.status === 'only_in_a') return { ...untested('cell', c.key, c.status, a, b), reason: 'ran in A only' };
  if (c.status === 'only_in_b') return { ...untested('cell', c.key, c.status, a, b), reason: 'ran in B only' };
  if (c.status === 'changed') {
    const what = c.changed!.map((x) => (x === 'scenario' ? 'scenario file' : 'tool definitions')).join(' and ');
    return { ...untested('cell', c.key, 'changed', a, b), changed: c.changed, reason: `${what} changed` };
  }
  const flags = c.unverified ? { unverified: true } : {};
  if (!judgedCount(a) || !judgedCount(b)) {
    const reason = [!judgedCount(a) ? noJudged('A', a) : '', !judgedCount(b) ? noJudged('B', b) : ''].filter(Boolean).join('; ');
    return { ...untested('cell', c.key, 'not_compared', a, b), ...flags, reason };
  }
  return { ...untested('cell', c.key, 'compared', a, b), ...flags, ...testGroup([c], confidence) };
}

/** a roll-up over the cells compared beneath it: cells not compared do not move its denominators */
function rollUp(level: GroupLevel, key: string, cells: Cells, confidence: number): ComparisonRow {
  const [a, b] = [
    sideOf(
      cells.flatMap((c) => c.a),
      confidence,
    ),
    sideOf(
      cells.flatMap((c) => c.b),
      confidence,
    ),
  ];
  if (!cells.length) return { ...untested(level, key, 'not_compared', a, b), reason: 'none of its cells was compared' };
  const flags = cells.some((c) => c.unverified) ? { unverified: true } : {};
  return { ...untested(level, key, 'compared', a, b), ...flags, ...testGroup(cells, confidence) };
}

function verdictOf(p: number, difference: number | null, alpha: number): ComparisonVerdict {
  if (!(p < alpha) || !difference) return 'no_significant_change';
  return difference > 0 ? 'improved' : 'regressed';
}

function count(rows: readonly ComparisonRow[], pick: (r: ComparisonRow) => ComparisonVerdict | null): ComparisonCounts {
  const of = (v: ComparisonVerdict) => rows.filter((r) => pick(r) === v).length;
  return {
    regressed: of('regressed'),
    improved: of('improved'),
    unchanged: of('no_significant_change'),
    notCompared: rows.filter((r) => r.status !== 'compared').length,
  };
}

/** Compares b against baseline a at every level; pure, so a bench can call it on outcomes it made up. */
export function compareRuns(a: readonly TrialOutcome[], b: readonly TrialOutcome[], opts: CompareOptions = {}): RunComparison {
  const alpha = opts.alpha ?? 0.05;
  const confidence = opts.confidence ?? 0.95;
  const matched = matchCells(a, b);
  const cells = matched.map((c) => cellRow(c, confidence));
  const tested = matched.filter((_, i) => cells[i].status === 'compared');
  const at = (level: 'model' | 'config') =>
    groupTrials([...a, ...b], level).map((g) =>
      rollUp(
        level,
        g.key,
        tested.filter((c) => keyAt(level, (c.a[0] ?? c.b[0])!) === g.key),
        confidence,
      ),
    );
  const [models, configs] = [at('model'), at('config')];
  const run = rollUp('run', 'run', tested, confidence);
  const rows = [run, ...configs, ...models, ...cells];
  // A roll-up over the same cells as another row is the same test (one model: its row is the run's;
  // a model with one cell: that cell's). It enters the family once, so a one-model run is not
  // corrected three times for one question; the rows share its corrected values.
  const covers = (r: ComparisonRow): string => {
    if (r.level === 'cell') return r.key;
    const under = tested.filter((c) => r.level === 'run' || keyAt(r.level, (c.a[0] ?? c.b[0])!) === r.key);
    return under.map((c) => c.key).join('\n');
  };
  const tests = new Map<string, ComparisonRow[]>();
  for (const r of rows.filter((x) => x.pValue !== null)) {
    const key = covers(r);
    tests.set(key, [...(tests.get(key) ?? []), r]);
  }
  const family = [...tests.values()];
  const p = family.map((same) => same[0].pValue!);
  const [holm, q] = [holmAdjust(p), benjaminiHochberg(p)];
  family.forEach((same, i) => {
    for (const r of same) {
      r.holm = holm[i];
      r.q = q[i];
      r.verdict = verdictOf(holm[i], r.difference, alpha);
      r.fdrVerdict = verdictOf(q[i], r.difference, alpha);
    }
  });
  const regressions = rows.filter((r) => r.verdict === 'regressed').map((r) => ({ level: r.level, key: r.key }));
  return {
    alpha,
    confidence,
    family: family.length,
    cells,
    models,
    configs,
    run,
    counts: count(rows, (r) => r.verdict),
    fdrCounts: count(rows, (r) => r.fdrVerdict),
    matchedCells: matched.filter((c) => c.status === 'compared').length,
    gate: { fires: regressions.length > 0, regressions },
  };
}
