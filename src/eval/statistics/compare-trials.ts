// The test of one group (a cell, a model, a configuration, the run) in two sets of trials. Trials of
// independent runs are independent samples: Fisher's exact test. Only trials that share a seed are
// paired (the same cell and trial number in runs made with the same run seed): McNemar's exact test
// on their discordant pairs. Pairing by trial number alone would pair unrelated draws.
import { fisherExact, mcnemarExact, newcombeDifference, newcombePairedDifference, type PairedTable } from './exact-tests';
import { wilson } from './proportion';
import type { ComparisonRow, ComparisonSide } from './comparison-types';
import type { TrialOutcome } from './statistics-types';

export function sideOf(ts: readonly TrialOutcome[], confidence = 0.95): ComparisonSide {
  const n = (s: TrialOutcome['status']) => ts.filter((t) => t.status === s).length;
  const [passed, failed] = [n('passed'), n('failed')];
  return {
    trials: ts.length,
    passed,
    failed,
    unjudged: n('unjudged'),
    errored: n('error'),
    passRate: wilson(passed, passed + failed, confidence),
  };
}

const judged = (t: TrialOutcome) => t.status === 'passed' || t.status === 'failed';

/**
 * The paired table of one cell's trials, or null when they do not pair: every trial on each side
 * has a partner with the same number and the same seed on the other, and each pair is judged on
 * both sides or on neither (a pair judged on one side only is not dropped: Fisher keeps it).
 */
export function pairCell(a: readonly TrialOutcome[], b: readonly TrialOutcome[]): PairedTable | null {
  if (a.length !== b.length || !a.length) return null;
  const bi = new Map(b.map((t) => [t.trial, t]));
  if (bi.size !== b.length) return null;
  const table: PairedTable = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  for (const x of a) {
    const y = bi.get(x.trial);
    if (!y || x.seed === undefined || x.seed !== y.seed) return null;
    if (judged(x) !== judged(y)) return null;
    if (!judged(x)) continue;
    const [pa, pb] = [x.status === 'passed', y.status === 'passed'];
    if (pa && pb) table.both++;
    else if (pa) table.onlyA++;
    else if (pb) table.onlyB++;
    else table.neither++;
  }
  return table;
}

/** the cells' tables summed, or null if any cell does not pair */
export function pairCells(cells: ReadonlyArray<{ a: readonly TrialOutcome[]; b: readonly TrialOutcome[] }>): PairedTable | null {
  const sum: PairedTable = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  for (const c of cells) {
    const t = pairCell(c.a, c.b);
    if (!t) return null;
    for (const k of Object.keys(sum) as Array<keyof PairedTable>) sum[k] += t[k];
  }
  return sum;
}

export type TestedRow = Pick<ComparisonRow, 'test' | 'pairs' | 'discordant' | 'difference' | 'differenceCi' | 'pValue'>;

/** the test of a group whose cells all matched and have judged trials on both sides */
export function testGroup(cells: ReadonlyArray<{ a: readonly TrialOutcome[]; b: readonly TrialOutcome[] }>, confidence: number): TestedRow {
  const paired = pairCells(cells);
  if (paired && paired.both + paired.onlyA + paired.onlyB + paired.neither > 0) {
    const pairs = paired.both + paired.onlyA + paired.onlyB + paired.neither;
    return {
      test: 'mcnemar_exact',
      pairs,
      discordant: { onlyB: paired.onlyB, onlyA: paired.onlyA },
      difference: (paired.onlyB - paired.onlyA) / pairs,
      differenceCi: newcombePairedDifference(paired, confidence),
      pValue: mcnemarExact(paired.onlyB, paired.onlyA),
    };
  }
  const a = sideOf(cells.flatMap((c) => c.a));
  const b = sideOf(cells.flatMap((c) => c.b));
  const [na, nb] = [a.passed + a.failed, b.passed + b.failed];
  return {
    test: 'fisher_exact',
    difference: b.passed / nb - a.passed / na,
    differenceCi: newcombeDifference(b.passed, nb, a.passed, na, confidence),
    pValue: fisherExact(a.passed, na, b.passed, nb),
  };
}
