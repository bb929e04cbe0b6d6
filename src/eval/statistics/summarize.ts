// Summaries of trial outcomes: counts, pass rate with its interval, pass^k and pass@k, pathology
// rates, tokens, latency, terminations and iterations, for a cell, a model, a configuration or a run.
//
// Errored trials (infrastructure failures) count in `trials`, `errored`, the token totals and the
// terminations, and nowhere else: like τ²-bench we keep them out of every rate, and their partial
// numbers (no tokens, no iterations) would drag the per-trial means and medians down.
import { groupTrials, cellKey, compareStrings, type GroupLevel } from './grouping';
import { passKEstimates, type CellCounts } from './pass-k-estimate';
import { comparePathologyKeys } from './pathology-keys';
import { wilson } from './proportion';
import type { PassKEstimate } from './pass-k-estimate';
import type { PathologyKey, Proportion, Summary, TrialLatency, TrialOutcome } from './statistics-types';

export interface SummarizeOptions {
  /** the k of pass^k and pass@k; default 1, 3 and 5 */
  ks?: number[];
  /** of the Wilson intervals; default 0.95 */
  confidence?: number;
}

export const DEFAULT_KS: readonly number[] = [1, 3, 5];

const LATENCY_FIELDS: ReadonlyArray<keyof TrialLatency> = [
  'slotWaitMs',
  'loadMs',
  'serverQueueMs',
  'prefillMs',
  'decodeMs',
  'firstTokenMs',
  'workingMs',
];

export function mean(xs: readonly number[]): number | null {
  return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null;
}

/** the middle value; the mean of the two middle values for an even count */
export function median(xs: readonly number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Judged trials (n) and passes (c) of every cell in the group, in cell-key order: a cell whose
 * trials all errored or went unjudged is there with n = 0, so it is counted as one with too few.
 */
function cellCounts(trials: readonly TrialOutcome[]): CellCounts[] {
  const cells = new Map<string, CellCounts>();
  for (const t of trials) {
    const key = cellKey(t);
    const cell = cells.get(key) ?? { n: 0, c: 0 };
    if (t.status === 'passed' || t.status === 'failed') cell.n++;
    if (t.status === 'passed') cell.c++;
    cells.set(key, cell);
  }
  return [...cells.entries()].sort(([a], [b]) => compareStrings(a, b)).map(([, c]) => c);
}

function pathologies(judged: readonly TrialOutcome[], confidence: number): Summary['pathologies'] {
  const seen = new Map<string, { affected: number; events: number }>();
  for (const t of judged) {
    for (const [key, count] of Object.entries(t.pathologies)) {
      if (!count || count <= 0) continue;
      const p = seen.get(key) ?? { affected: 0, events: 0 };
      p.affected++;
      p.events += count;
      seen.set(key, p);
    }
  }
  const out: Summary['pathologies'] = {};
  for (const key of [...seen.keys()].sort(comparePathologyKeys)) {
    const { affected, events } = seen.get(key)!;
    out[key as PathologyKey] = { ...wilson(affected, judged.length, confidence), events };
  }
  return out;
}

function sortedCounts(keys: readonly string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return Object.fromEntries([...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function summarize(trials: readonly TrialOutcome[], opts: SummarizeOptions = {}): Summary {
  const confidence = opts.confidence ?? 0.95;
  const ks = [...new Set(opts.ks ?? DEFAULT_KS)].sort((a, b) => a - b);
  for (const k of ks) if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  // ran: the loop ran to the end (unjudged trials too), so its pathologies, tokens and latency count
  const ran = trials.filter((t) => t.status !== 'error');
  const passed = trials.filter((t) => t.status === 'passed').length;
  const failed = trials.filter((t) => t.status === 'failed').length;
  const passRate: Proportion = wilson(passed, passed + failed, confidence);

  // per cell over the cells with at least k judged trials, as τ²-bench averages pass_hat_k over tasks
  const estimates = passKEstimates(cellCounts(trials), ks, confidence);
  const valueOf = (e: Record<string, PassKEstimate>) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, v.value]));

  const latency = {} as Summary['latency'];
  for (const f of LATENCY_FIELDS) {
    latency[f] = median(ran.map((t) => t.latency[f]).filter((v): v is number => v !== null && v !== undefined));
  }

  return {
    trials: trials.length,
    passed,
    failed,
    unjudged: trials.filter((t) => t.status === 'unjudged').length,
    errored: trials.filter((t) => t.status === 'error').length,
    passRate,
    passHatK: valueOf(estimates.passHat),
    passAtK: valueOf(estimates.passAt),
    passHatKDetail: estimates.passHat,
    passAtKDetail: estimates.passAt,
    pathologies: pathologies(ran, confidence),
    tokens: {
      meanInput: mean(ran.map((t) => t.tokens.input)),
      meanOutput: mean(ran.map((t) => t.tokens.output)),
      // totals are what the run spent, errored trials included
      totalInput: trials.reduce((s, t) => s + t.tokens.input, 0),
      totalOutput: trials.reduce((s, t) => s + t.tokens.output, 0),
    },
    latency,
    terminations: sortedCounts(trials.map((t) => t.terminationReason ?? 'none')),
    meanIterations: mean(ran.map((t) => t.iterations)),
  };
}

export interface KeyedSummary {
  key: string;
  summary: Summary;
}

export interface CellSummary extends KeyedSummary {
  scenarioId: string;
  model: string;
  configKey: string;
}

/** every level of a run at once: what the reports and the stored run summary take */
export interface RunSummaries {
  run: Summary;
  cells: CellSummary[];
  models: KeyedSummary[];
  configs: KeyedSummary[];
}

function summarizeAt(level: GroupLevel, trials: readonly TrialOutcome[], opts: SummarizeOptions): KeyedSummary[] {
  return groupTrials(trials, level).map((g) => ({ key: g.key, summary: summarize(g.trials, opts) }));
}

/** one summary per `scenarioId|model|configKey`, sorted by scenario, model, configuration */
export function summarizeByCell(trials: readonly TrialOutcome[], opts: SummarizeOptions = {}): CellSummary[] {
  return groupTrials(trials, 'cell').map((g) => ({ key: g.key, ...g.sample, summary: summarize(g.trials, opts) }));
}

/** one summary per model, sorted by name; pass^k averages over the model's cells */
export function summarizeByModel(trials: readonly TrialOutcome[], opts: SummarizeOptions = {}): KeyedSummary[] {
  return summarizeAt('model', trials, opts);
}

/** one summary per configuration key (`''` = defaults), sorted */
export function summarizeByConfig(trials: readonly TrialOutcome[], opts: SummarizeOptions = {}): KeyedSummary[] {
  return summarizeAt('config', trials, opts);
}

/** the whole run under the key `run` */
export function summarizeRun(trials: readonly TrialOutcome[], opts: SummarizeOptions = {}): KeyedSummary {
  return { key: 'run', summary: summarize(trials, opts) };
}

export function summarizeAll(trials: readonly TrialOutcome[], opts: SummarizeOptions = {}): RunSummaries {
  return {
    run: summarize(trials, opts),
    cells: summarizeByCell(trials, opts),
    models: summarizeByModel(trials, opts),
    configs: summarizeByConfig(trials, opts),
  };
}

/**
 * Reloads inside measured turns: `model_reloaded` events a session recorded (the model was loaded
 * again, by a changed num_ctx, keep_alive expiry or eviction, while a trial's turn was timed; the
 * warm-ups of a live run's groups are not sessions). 0 is what a well-run live eval shows.
 */
export function measuredReloads(summary: Pick<Summary, 'pathologies'>): number {
  return (summary.pathologies as Record<string, { events: number } | undefined>).model_reloaded?.events ?? 0;
}
