// A run comparison as text: one row per run, configuration, model and cell, each side's pass rate
// with its errored and unjudged trials beside it, the difference with its Newcombe interval, the
// raw, Holm and BH p-values, and the verdict or why there is none; then the summary line.
import type { ComparisonRow, ComparisonSide, RunComparison } from '../eval/statistics/comparison-types';
import { comparisonSummaryLine } from '../eval/statistics/comparison-summary';
import { rateWithInterval } from './results-table';

const signedPt = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;

function side(s: ComparisonSide): string {
  if (!s.trials) return '–';
  const apart = [s.errored ? `${s.errored} err` : '', s.unjudged ? `${s.unjudged} unj` : ''].filter(Boolean).join(', ');
  return `${s.passed}/${s.passed + s.failed} ${rateWithInterval(s.passRate)}${apart ? ` +${apart}` : ''}`;
}

const p = (v: number | null) => (v === null ? '–' : v.toPrecision(2));

export function verdictText(r: ComparisonRow): string {
  switch (r.status) {
    case 'only_in_a':
      return 'only in A';
    case 'only_in_b':
      return 'only in B';
    case 'changed':
      return `changed, not compared (${r.reason})`;
    case 'not_compared':
      return `not compared (${r.reason})`;
    case 'compared':
      break;
  }
  const v = r.verdict!.replace(/_/g, ' ');
  const fdr = r.fdrVerdict !== r.verdict ? ` (BH: ${r.fdrVerdict!.replace(/_/g, ' ')})` : '';
  return `${v}${fdr}${r.unverified ? ' [unverified: no hash]' : ''}`;
}

function row(r: ComparisonRow): string[] {
  const diff =
    r.difference === null
      ? '–'
      : `${signedPt(r.difference)} pt${r.differenceCi ? ` [${signedPt(r.differenceCi.lo)}, ${signedPt(r.differenceCi.hi)}]` : ''}`;
  const test = r.test === 'mcnemar_exact' ? 'mcnemar (paired)' : r.test === 'fisher_exact' ? 'fisher' : '–';
  return [r.level, r.key, side(r.a), side(r.b), diff, p(r.pValue), p(r.holm), p(r.q), test, verdictText(r)];
}

/** the table and the summary line; labels name the two columns by what differs between them */
export function formatComparison(result: RunComparison, labels: { a: string; b: string }): string {
  const rows = [result.run, ...result.configs, ...result.models, ...result.cells].map(row);
  const header = ['LEVEL', 'KEY', `A ${labels.a}`, `B ${labels.b}`, 'DIFF [95% CI]', 'P', 'HOLM', 'Q (BH)', 'TEST', 'VERDICT'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const lines = [header, ...rows].map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
  return [...lines, '', comparisonSummaryLine(result)].join('\n');
}

/** the regressions that fire the gate, one line each, for stderr */
export function regressionLines(result: RunComparison): string[] {
  const rows = [result.run, ...result.configs, ...result.models, ...result.cells].filter((r) => r.verdict === 'regressed');
  return rows.map(
    (r) =>
      `REGRESSION ${r.level} ${r.key}: ${side(r.a)} → ${side(r.b)} (${r.test}, p = ${p(r.pValue)}, Holm p = ${p(r.holm)} over ${result.family} tests)`,
  );
}
