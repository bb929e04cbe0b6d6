// The shapes the eval's statistics work on: one outcome per trial, summaries per cell (scenario ×
// model × configuration) and per roll-up (model, configuration, the whole run); comparisons are in
// comparison-types.ts.
// Plain data: computed by pure functions, stored as jsonb, read by the CLI, the API and dashboards.

import type { PathologyKey } from '../../journal/events/loop-vocabulary';
import type { PassKEstimate } from './pass-k-estimate';

/** What can go wrong in a loop, counted per trial: declared with the loop's vocabulary. */
export type { PathologyKey } from '../../journal/events/loop-vocabulary';

/** Latency split of one trial, summed over its model calls (ms). */
export interface TrialLatency {
  /** Loupe's own slot wait (before the loop) */
  slotWaitMs: number;
  /** from Ollama's durations */
  loadMs: number;
  /** queueing inside Ollama: total − load − prompt eval − eval */
  serverQueueMs: number;
  prefillMs: number;
  decodeMs: number;
  /** first streamed chunk of the first model call */
  firstTokenMs: number | null;
  /** the session's wall time minus approval waits */
  workingMs: number;
}

export interface TrialOutcome {
  scenarioId: string;
  model: string;
  /** canonical `key=value,key=value` of the configuration (empty string: defaults) */
  configKey: string;
  /** 1-based */
  trial: number;
  /** unjudged = no check applied (never a pass); error = Loupe or the infrastructure failed; both excluded from pass rates, counted apart */
  status: 'passed' | 'failed' | 'unjudged' | 'error';
  terminationReason: string | null;
  /** events of each pathology in the trial (absent = 0) */
  pathologies: Partial<Record<PathologyKey, number>>;
  tokens: { input: number; output: number };
  latency: TrialLatency;
  iterations: number;
  /** full sha256 of the scenario file the trial ran: cells are compared across runs only when it matches */
  scenarioHash?: string;
  /** full sha256 of the tool definitions sent to the model */
  toolSchemaHash?: string;
  /** the seed the trial's requests carried: two runs with the same run seed pair trial by trial */
  seed?: number;
}

/** A proportion with its 95% Wilson score interval. */
export interface Proportion {
  successes: number;
  n: number;
  /** successes / n; null when n = 0 */
  rate: number | null;
  lo: number | null;
  hi: number | null;
}

export interface Summary {
  /** trials in the summary, by status */
  trials: number;
  passed: number;
  failed: number;
  /** no check applied: counted apart, never in the pass rate */
  unjudged: number;
  errored: number;
  /** passed / (passed + failed), Wilson 95% (errored trials excluded, as τ²-bench excludes infrastructure errors) */
  passRate: Proportion;
  /** pass^k (τ²-bench: all k of k trials pass) and pass@k (Inspect / Chen et al.: at least one of k), per k, averaged over scenarios */
  passHatK: Record<string, number | null>;
  passAtK: Record<string, number | null>;
  /** the same with the cells they rest on, the cells with fewer than k judged trials, and a bootstrap interval (pass-k-estimate.ts) */
  passHatKDetail: Record<string, PassKEstimate>;
  passAtKDetail: Record<string, PassKEstimate>;
  /** share of judged trials showing each pathology at least once, Wilson 95%, plus the event count */
  pathologies: Partial<Record<PathologyKey, Proportion & { events: number }>>;
  tokens: { meanInput: number | null; meanOutput: number | null; totalInput: number; totalOutput: number };
  /** medians per trial, ms */
  latency: { [K in keyof TrialLatency]: number | null };
  terminations: Record<string, number>;
  meanIterations: number | null;
}
