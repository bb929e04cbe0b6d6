// Comparison of two runs (a: the baseline, b: the candidate) per cell, model, configuration and
// for the whole run, in the spirit of Braintrust's improvements/regressions against a base
// experiment, with a significance test so that noise at 3 trials a cell is not called a change.
import { newcombeDifference, fisherExact, mcnemarExact } from './exact-tests';
import { groupTrials, trialKey, type GroupLevel } from './grouping';
import { wilson } from './proportion';
import type { Comparison, ComparisonVerdict, TrialOutcome } from './statistics-types';

export interface CompareOptions {
  /** significance level of the verdicts; default 0.05 */
  alpha?: number;
  /** of the intervals; default 0.95 */
  confidence?: number;
}

export interface RunComparison {
  cells: Comparison[];
  models: Comparison[];
  configs: Comparison[];
  run: Comparison;
}

const judged = (t: TrialOutcome) => t.status !== 'error';

/**
 * The pairs when every judged trial of each side has a judged partner (same cell and trial index)
 * on the other, else null. A partial pairing is not used: McNemar on the pairs alone would
 * silently drop the unpaired trials, which Fisher's test keeps.
 */
function pairs(a: readonly TrialOutcome[], b: readonly TrialOutcome[]): Array<[TrialOutcome, TrialOutcome]> | null {
  const ka = byTrial(a.filter(judged));
  const kb = byTrial(b.filter(judged));
  if (!ka || !kb || ka.size === 0 || ka.size !== kb.size) return null;
  const out: Array<[TrialOutcome, TrialOutcome]> = [];
  for (const [key, t] of ka) {
    const partner = kb.get(key);
    if (!partner) return null;
    out.push([t, partner]);
  }
  return out;
}

/** trials by cell and index; null if an index repeats (then there is no one-to-one pairing) */
function byTrial(ts: readonly TrialOutcome[]): Map<string, TrialOutcome> | null {
  const m = new Map(ts.map((t) => [trialKey(t), t]));
  return m.size === ts.length ? m : null;
}

function verdict(pValue: number | null, difference: number | null, alpha: number): ComparisonVerdict {
  if (pValue === null || difference === null || !(pValue < alpha) || difference === 0) return 'no_significant_change';
  return difference > 0 ? 'improved' : 'regressed';
}

/** compares the trials of one group (a cell, a model, …) in the two runs */
export function compareTrials(key: string, a: readonly TrialOutcome[], b: readonly TrialOutcome[], opts: CompareOptions = {}): Comparison {
  const alpha = opts.alpha ?? 0.05;
  const confidence = opts.confidence ?? 0.95;
  const count = (ts: readonly TrialOutcome[]) => {
    const j = ts.filter(judged);
    return wilson(j.filter((t) => t.status === 'passed').length, j.length, confidence);
  };
  const pa = count(a);
  const pb = count(b);
  const difference = pa.rate !== null && pb.rate !== null ? pb.rate - pa.rate : null;
  const paired = pairs(a, b);
  if (paired) {
    const onlyB = paired.filter(([x, y]) => x.status === 'failed' && y.status === 'passed').length;
    const onlyA = paired.filter(([x, y]) => x.status === 'passed' && y.status === 'failed').length;
    const pValue = mcnemarExact(onlyB, onlyA);
    return {
      key,
      a: pa,
      b: pb,
      difference,
      test: 'mcnemar_exact',
      discordant: { onlyB, onlyA },
      pValue,
      verdict: verdict(pValue, difference, alpha),
    };
  }
  const pValue = fisherExact(pa.successes, pa.n, pb.successes, pb.n);
  const ci = newcombeDifference(pb.successes, pb.n, pa.successes, pa.n, confidence);
  return {
    key,
    a: pa,
    b: pb,
    difference,
    test: 'fisher_exact',
    pValue,
    ...(ci ? { differenceCi: ci } : {}),
    verdict: verdict(pValue, difference, alpha),
  };
}

function compareAt(level: GroupLevel, a: readonly TrialOutcome[], b: readonly TrialOutcome[], opts: CompareOptions): Comparison[] {
  const ga = new Map(groupTrials(a, level).map((g) => [g.key, g.trials]));
  const gb = new Map(groupTrials(b, level).map((g) => [g.key, g.trials]));
  // groups present in either run, in the same sorted order as the summaries
  return groupTrials([...a, ...b], level).map((g) => compareTrials(g.key, ga.get(g.key) ?? [], gb.get(g.key) ?? [], opts));
}

/** compares run b against baseline run a at every level */
export function compareRuns(a: readonly TrialOutcome[], b: readonly TrialOutcome[], opts: CompareOptions = {}): RunComparison {
  return {
    cells: compareAt('cell', a, b, opts),
    models: compareAt('model', a, b, opts),
    configs: compareAt('config', a, b, opts),
    run: compareTrials('run', a, b, opts),
  };
}

export type LevelledComparison = Comparison & { level: GroupLevel };

/**
 * The significant regressions, for `--baseline` gating: the run first, then configurations,
 * models and cells. Each level is tested at alpha on its own (no multiplicity correction), so a
 * gate over many cells should choose its levels, e.g. `{ levels: ['run', 'model'] }`.
 */
export function significantRegressions(result: RunComparison, opts: { levels?: readonly GroupLevel[] } = {}): LevelledComparison[] {
  const levels = new Set(opts.levels ?? ['run', 'config', 'model', 'cell']);
  const at: Array<[GroupLevel, Comparison[]]> = [
    ['run', [result.run]],
    ['config', result.configs],
    ['model', result.models],
    ['cell', result.cells],
  ];
  return at
    .filter(([level]) => levels.has(level))
    .flatMap(([level, cs]) => cs.filter((c) => c.verdict === 'regressed').map((c) => ({ ...c, level })));
}
