// The shapes of a comparison of two sets of trials (a: the baseline, b: the candidate): one row per
// cell, model, configuration and for the run, each saying whether it was compared and, if it was,
// with which test, its raw and corrected p-values and its verdict. Plain data: stored with a run
// report, returned by the API, printed by the CLI.
import type { GroupLevel } from './grouping';
import type { Proportion } from './statistics-types';

export type ComparisonVerdict = 'improved' | 'regressed' | 'no_significant_change';

/**
 * compared: tested, with a verdict. Never a verdict otherwise:
 * not_compared: matched, but a side has no judged trial (or, for a roll-up, no compared cell);
 * changed: the scenario file or the tool definitions differ between the sides;
 * only_in_a / only_in_b: the cell ran on one side only.
 */
export type ComparisonStatus = 'compared' | 'not_compared' | 'changed' | 'only_in_a' | 'only_in_b';

/** What one side holds for a row: every trial by status, and the pass rate passed / (passed + failed). */
export interface ComparisonSide {
  trials: number;
  passed: number;
  failed: number;
  unjudged: number;
  errored: number;
  passRate: Proportion;
}

export interface ComparisonRow {
  level: GroupLevel;
  /** a cell `scenario|model|config`, a model, a configuration, or `run` */
  key: string;
  status: ComparisonStatus;
  /** why a row has no verdict, in words */
  reason?: string;
  /** changed: what differs */
  changed?: Array<'scenario' | 'tool_schema'>;
  /** compared, but a side's trials carry no hash to check (rows recorded before hashes were kept) */
  unverified?: boolean;
  a: ComparisonSide;
  b: ComparisonSide;
  /** fisher_exact for independent trials; mcnemar_exact for trials paired by seed */
  test: 'fisher_exact' | 'mcnemar_exact' | null;
  /** mcnemar_exact: the pairs and their discordant ones (b passed & a failed, a passed & b failed) */
  pairs?: number;
  discordant?: { onlyB: number; onlyA: number };
  /** b's pass rate − a's */
  difference: number | null;
  /** Newcombe's hybrid score interval of the difference (the paired one for mcnemar_exact) */
  differenceCi: { lo: number; hi: number } | null;
  /** the test's own p-value, before correction */
  pValue: number | null;
  /** Holm-adjusted over the whole family: the verdict and the gate */
  holm: number | null;
  /** Benjamini–Hochberg q-value over the same family: the false-discovery view of the list */
  q: number | null;
  /** from Holm at alpha; null when not compared */
  verdict: ComparisonVerdict | null;
  /** from the q-value at alpha; null when not compared */
  fdrVerdict: ComparisonVerdict | null;
}

export interface ComparisonCounts {
  regressed: number;
  improved: number;
  unchanged: number;
  notCompared: number;
}

export interface RunComparison {
  alpha: number;
  confidence: number;
  /** how many tests the corrections ran over (every compared row, all levels) */
  family: number;
  cells: ComparisonRow[];
  models: ComparisonRow[];
  configs: ComparisonRow[];
  run: ComparisonRow;
  /** over every row: verdicts by Holm, and the rows without one */
  counts: ComparisonCounts;
  /** the same by q-value */
  fdrCounts: ComparisonCounts;
  /** cells matched (same key and hashes), whether or not they could be tested */
  matchedCells: number;
  /** the gate: it fires when any row regressed after Holm's correction */
  gate: { fires: boolean; regressions: Array<{ level: GroupLevel; key: string }> };
}
