// `loupe eval --baseline RUN`: the run is judged against the baseline, not against perfection. It
// fails on a regression that survives Holm's correction; failures the baseline already had, and
// cells the baseline never ran, are listed but do not fail it. A baseline that shares no cell with
// the run vouches for nothing: then failures count as they do without one.
import type { EvalRunReport } from '../eval/eval-types';
import { comparisonSummaryLine } from '../eval/statistics/comparison-summary';
import type { ComparisonRow } from '../eval/statistics/comparison-types';
import { regressionLines } from './comparison-table';

export interface BaselineGate {
  /** a corrected, significant regression */
  fires: boolean;
  /** failures are judged by the comparison, not counted on their own */
  excusesFailures: boolean;
}

function failingKind(c: ComparisonRow): string {
  if (c.status === 'only_in_b') return 'new (not in the baseline)';
  if (c.status === 'changed') return `changed since the baseline (${c.reason})`;
  if (c.verdict === 'regressed') return 'regressed (significant after Holm)';
  if (c.a.failed > 0) return 'pre-existing (failed in the baseline too)';
  return 'newly failing, not a significant regression';
}

/** writes the comparison's findings to stderr and says how they bear on the exit code */
export function baselineGate(comparison: NonNullable<EvalRunReport['comparison']>, write: (line: string) => void): BaselineGate {
  const { result, baselineRunId } = comparison;
  for (const line of regressionLines(result)) write(line);
  const failing = result.cells.filter((c) => c.b.failed > 0);
  for (const c of failing) write(`failing ${c.key}: ${c.b.failed} failed — ${failingKind(c)}`);
  write(`Compared with baseline ${baselineRunId}: ${comparisonSummaryLine(result)}`);
  if (!result.matchedCells) write(`no cell matches the baseline ${baselineRunId}: its failures are not excused`);
  return { fires: result.gate.fires, excusesFailures: result.matchedCells > 0 };
}
