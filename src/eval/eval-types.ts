import type { ExpectationResult } from './expectations/evaluate-expectations';

export type TrialStatus = 'passed' | 'failed' | 'error';

export interface TrialReport {
  trialId: string;
  scenarioId: string;
  title: string;
  file: string;
  spec: string;
  model: string;
  trial: number;
  sessionId: string | null;
  traceId: string | null;
  status: TrialStatus;
  terminationReason: string | null;
  expectations: ExpectationResult[];
  failedExpectations: ExpectationResult[];
  iterations: number;
  events: number;
  durationMs: number;
  error?: string;
}

export interface EvalRunReport {
  runId: string;
  startedAt: string;
  durationMs: number;
  /** where the model replies came from */
  backend: { kind: 'standin' } | { kind: 'ollama'; host: string };
  passed: number;
  failed: number;
  errored: number;
  /** trials never started because the run stopped early */
  notRun: number;
  trials: TrialReport[];
  /** why the run stopped before every trial ran (the database failed for good) */
  stoppedBy?: string;
}

export interface EvalRunOptions {
  /** models to run each scenario against; default: the scenario's own model or the stand-in default */
  models?: string[];
  trials?: number;
  concurrency?: number;
  onTrialFinished?: (t: TrialReport) => void;
}
