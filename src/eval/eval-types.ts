import type { ExpectationResult } from './expectations/evaluate-expectations';
import type { InvariantViolation } from './invariants/check-invariants';
import type { Configuration } from './run-plan';
import type { RunComparison } from './statistics/compare';
import type { RunSummaries } from './statistics/summarize';
import type { ReplaySettings } from './recording/run-replay';
import type { RunPersonas } from './sim-models';

/**
 * passed / failed: by checks the trial actually ran; unjudged: no check applied to it (never a pass);
 * error: Loupe or the infrastructure failed. Statistics and comparisons never mix them silently.
 */
export type TrialStatus = 'passed' | 'failed' | 'unjudged' | 'error';

/** What a trial ran against, so that a reader can tell whether two results are comparable (full-length sha256 hashes). */
export interface TrialProvenance {
  scenarioHash: string;
  toolSchemaHash: string | null;
  systemPromptHash: string | null;
  promptHash: string;
  modelDigest: string | null;
  ollamaVersion: string | null;
  /** the git commit, `+dirty` when the checkout has uncommitted changes */
  loupeRevision: string;
  /** sha256 of the uncommitted diff (`git diff HEAD`) when dirty */
  loupeDiffHash: string | null;
  profile: string;
  /** the loop settings the session resolved */
  settings: Record<string, unknown> | null;
  /** the model request options as sent (sampling: seed, temperature…; num_ctx) */
  requestOptions: Record<string, unknown> | null;
  /** the trial's seed, derived from the run seed, the cell and the trial index */
  seed: number | null;
}

/** The list of checks that judged a trial (see judgedAs in trials/trial-verdict.ts). */
export type JudgedBy = 'expect' | 'expect_by_profile' | 'success';

export interface TrialReport {
  trialId: string;
  scenarioId: string;
  title: string;
  file: string;
  spec: string;
  model: string;
  trial: number;
  /** canonical `key=value,…` of the configuration ('' = the scenario's own settings) */
  configKey: string;
  /** the loop profile the trial ran under */
  profile: string;
  /** which list judged it: `expect` (scripted, under a profile the scenario was written for), `expect_by_profile` (scripted, under another profile it states), `success` (a live model, or any other profile's loop) */
  judgedBy: JudgedBy;
  sessionId: string | null;
  traceId: string | null;
  status: TrialStatus;
  terminationReason: string | null;
  expectations: ExpectationResult[];
  failedExpectations: ExpectationResult[];
  /** a violated invariant is a Loupe bug: the trial is an error */
  invariantViolations: InvariantViolation[];
  iterations: number;
  events: number;
  durationMs: number;
  error?: string;
  /** what the trial ran against; absent only where the trial errored before its backend was described */
  provenance?: TrialProvenance;
}

export interface EvalRunReport {
  runId: string;
  startedAt: string;
  durationMs: number;
  /** where the model replies came from */
  backend: { kind: 'standin' } | { kind: 'ollama'; host: string };
  passed: number;
  failed: number;
  /** trials no check applied to: never counted as passes */
  unjudged: number;
  errored: number;
  /** trials never started because the run stopped early */
  notRun: number;
  /** trials a signal stopped before their verdict (recorded `interrupted`, rerun by `eval resume`; in no count or statistic) */
  interrupted?: number;
  trials: TrialReport[];
  /** why the run stopped before every trial ran: the database failed for good, or a signal (`SIGINT`, `SIGTERM`) */
  stoppedBy?: string;
  /** Postgres checked against the journal's own count of each session's events, after the final flush */
  storage?: { sessionsChecked: number; mismatched: Array<{ sessionId: string; recorded: number; stored: number }> };
  /** scripted: the stand-in replays scripts; live: a real Ollama; sim: personas on the stand-in (`sim:<persona>`) */
  mode: 'scripted' | 'live' | 'sim';
  models: string[];
  configurations: Configuration[];
  trialsPerCell: number;
  /** per cell, model, configuration and the whole run */
  summaries: RunSummaries;
  /** against `--baseline RUN`, when given (a = the baseline, b = this run) */
  comparison?: { baselineRunId: string; result: RunComparison };
  /** the recorded run this one replayed */
  replayOf?: string;
  /** the run seed (`--seed`, or drawn); null: none was sent (a run recorded before seeds) */
  seed?: number | null;
}

/** Given by callers that must know a trial's ids before it starts (workers, resume). */
export interface TrialIds {
  trialId?: string;
  sessionId?: string;
  /** a rerun of an interrupted trial: 2, 3… */
  attempt?: number;
}

export interface EvalRunOptions {
  /** models to run each scenario against; default: the scenario's own model or the stand-in default */
  models?: string[];
  /** `--set key=v1,v2` axes, parsed */
  configurations?: Configuration[];
  trials?: number;
  concurrency?: number;
  /** auto (default): a scripted trial under a profile its scenario was written for is judged by `expect`, under another by its `expect_by_profile` list or else `success`; success: every trial by `success` */
  judge?: 'auto' | 'success';
  /** `--baseline RUN`: compare with that run when done */
  baselineRunId?: string;
  /** `--record`: keep every model request and response (eval_exchanges), for replay and export */
  record?: boolean;
  /** `--replay RUN`: serve each trial from that recorded run */
  replay?: ReplaySettings;
  /** `--seed`: the run seed, each trial's derived from it; unset: drawn at random; null: no seed is sent (replaying a run recorded before seeds) */
  seed?: number | null;
  /** the scenario paths the run was given (kept, so a resume finds its scenarios) */
  paths?: string[];
  /** the personas of its simulated models (`sim:<persona>`), read before it starts; stored with the run, so a resume or a worker serves the same */
  personas?: RunPersonas;
  /** the run's id, as soon as it is recorded (to resume it if it is killed) */
  onRunStarted?: (runId: string) => void;
  /** the run's id, when the caller names it before the run starts (the API answers with it at once) */
  runId?: string;
  onTrialStarted?: (total: number) => void;
  onTrialFinished?: (t: TrialReport) => void;
  /** aborted (reason: the signal's name) when the run must stop: nothing new starts, running trials end as interrupted */
  interrupt?: AbortSignal;
}
