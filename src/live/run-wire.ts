// What a run page and the runs list read, live and from the API alike: a trial as its matrix chip
// needs it (verdict, failed checks, tokens, latency, termination) and a run as its list row needs
// it (mode, models, configurations, profiles, progress, duration). Pure mappers from the journal's
// rows and the stored entities, so the socket and the REST answer carry the same shapes.
import type { EvalRunRow, EvalTrialRow } from '../journal/journal-entry';

/**
 * how a run's trials reached a model: recorded exchanges replayed, a real Ollama, the stand-in's
 * script, live trials on the stand-in, or simulated models (`sim:<persona>`) on the stand-in
 */
export type RunMode = 'replay' | 'live' | 'scripted' | 'simulated' | 'sim';

export interface LiveTrialCheck {
  expectation: string;
  detail: string | null;
}

export interface LiveTrial {
  id: string;
  runId: string;
  scenarioId: string;
  model: string;
  configKey: string;
  trialIndex: number;
  attempt: number;
  /** an interrupted attempt that a later one reran: not part of the run's results */
  replacedBy: string | null;
  status: EvalTrialRow['status'];
  sessionId: string | null;
  profile: string | null;
  iterations: number;
  durationMs: number | null;
  error: string | null;
  /** the checks that failed, with their messages (a failed trial's reasons) */
  failed: LiveTrialCheck[];
  terminationReason: string | null;
  tokens: { input: number; output: number } | null;
  /** first token of the first model call, and the session's working time (approval waits left out) */
  firstTokenMs: number | null;
  workingMs: number | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface LiveRun {
  id: string;
  status: EvalRunRow['status'];
  startedAt: string;
  finishedAt: string | null;
  /** finished: its whole duration; running: null (the page counts from startedAt) */
  durationMs: number | null;
  mode: RunMode;
  models: string[];
  /** configuration keys as the run asked for them ('' is the scenarios' own settings) */
  configurations: string[];
  /** the loop profiles its trials ran under, as far as known */
  profiles: string[];
  scenarioCount: number;
  /** trials the run planned (null: a run recorded before plans were stored) */
  plannedTrials: number | null;
  /** trials with a verdict so far */
  finishedTrials: number;
  passed: number;
  failed: number;
  unjudged: number;
  errored: number;
  /** the whole run's pass rate (null until its statistics are written, or with no judged trial) */
  passRate: number | null;
}

export type TrialStatusTally = Pick<LiveRun, 'finishedTrials' | 'passed' | 'failed' | 'unjudged' | 'errored'>;

const iso = (d: Date | string | null | undefined) => (d === null || d === undefined ? null : typeof d === 'string' ? d : d.toISOString());
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A trial row (journaled or stored) as its chip reads it. */
export function liveTrial(
  row: Pick<
    EvalTrialRow,
    | 'id'
    | 'runId'
    | 'scenarioId'
    | 'model'
    | 'configKey'
    | 'trialIndex'
    | 'status'
    | 'sessionId'
    | 'iterations'
    | 'durationMs'
    | 'error'
    | 'failedExpectations'
    | 'outcome'
    | 'metadata'
  > & { attempt?: number; replacedBy?: string | null; startedAt: Date | string; finishedAt: Date | string | null },
): LiveTrial {
  const outcome = (row.outcome ?? {}) as {
    terminationReason?: unknown;
    tokens?: { input?: unknown; output?: unknown };
    latency?: Record<string, unknown>;
  };
  const tokens = outcome.tokens ? { input: num(outcome.tokens.input) ?? 0, output: num(outcome.tokens.output) ?? 0 } : null;
  return {
    id: row.id,
    runId: row.runId,
    scenarioId: row.scenarioId,
    model: row.model,
    configKey: row.configKey,
    trialIndex: row.trialIndex,
    attempt: row.attempt ?? 1,
    replacedBy: row.replacedBy ?? null,
    status: row.status,
    sessionId: row.sessionId,
    profile: str(row.metadata?.profile),
    iterations: row.iterations,
    durationMs: row.durationMs,
    error: row.error,
    failed: (row.failedExpectations ?? []).map(checkOf),
    terminationReason: str(outcome.terminationReason),
    tokens,
    firstTokenMs: num(outcome.latency?.firstTokenMs),
    workingMs: num(outcome.latency?.workingMs),
    startedAt: iso(row.startedAt)!,
    finishedAt: iso(row.finishedAt),
  };
}

function checkOf(c: unknown): LiveTrialCheck {
  if (typeof c === 'string') return { expectation: c, detail: null };
  const r = (c ?? {}) as { expectation?: unknown; detail?: unknown; message?: unknown };
  return { expectation: str(r.expectation) ?? JSON.stringify(c), detail: str(r.detail) ?? str(r.message) };
}

/** replay when it replays a recording; otherwise the stored mode, `live` on the stand-in being `simulated` (personas: `sim`) */
export function runMode(config: Record<string, unknown>, options: Record<string, unknown>): RunMode {
  if (config.replay) return 'replay';
  if (config.mode === 'live') return options.backend === 'standin' ? 'simulated' : 'live';
  if (config.mode === 'sim') return 'sim';
  return 'scripted';
}

/** Counts of final trials by verdict (running and interrupted ones are not counted). */
export function tallyOf(statuses: Iterable<string>): TrialStatusTally {
  const t: TrialStatusTally = { finishedTrials: 0, passed: 0, failed: 0, unjudged: 0, errored: 0 };
  for (const s of statuses) {
    if (s === 'passed') t.passed++;
    else if (s === 'failed') t.failed++;
    else if (s === 'unjudged') t.unjudged++;
    else if (s === 'error') t.errored++;
    else continue;
    t.finishedTrials++;
  }
  return t;
}

/**
 * A run row as its list row reads it. `tally`: the counts of its trials so far (the run row's own
 * counts are written only when it finishes); `profiles`: those its trials ran under.
 */
export function liveRun(
  row: Pick<
    EvalRunRow,
    | 'id'
    | 'status'
    | 'startedAt'
    | 'finishedAt'
    | 'scenarioCount'
    | 'trialCount'
    | 'passed'
    | 'failed'
    | 'unjudged'
    | 'errored'
    | 'options'
    | 'config'
    | 'statistics'
  >,
  tally?: TrialStatusTally,
  profiles: readonly string[] = [],
): LiveRun {
  const config = (row.config ?? {}) as { models?: unknown; configurations?: Array<{ key?: unknown }>; jobCount?: unknown };
  const options = (row.options ?? {}) as { models?: unknown };
  const running = row.status === 'running' || row.status === 'queued';
  const counts: TrialStatusTally =
    !running || !tally
      ? {
          finishedTrials: row.passed + row.failed + (row.unjudged ?? 0) + row.errored,
          passed: row.passed,
          failed: row.failed,
          unjudged: row.unjudged ?? 0,
          errored: row.errored,
        }
      : tally;
  const startedAt = iso(row.startedAt)!;
  const finishedAt = iso(row.finishedAt);
  const stats = (row.statistics ?? null) as { run?: { passRate?: { rate?: unknown } } } | null;
  const models = Array.isArray(config.models) ? config.models : Array.isArray(options.models) ? options.models : [];
  return {
    id: row.id,
    status: row.status,
    startedAt,
    finishedAt,
    durationMs: finishedAt ? Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)) : null,
    mode: runMode(row.config ?? {}, row.options ?? {}),
    models: models.filter((m): m is string => typeof m === 'string'),
    configurations: (config.configurations ?? []).map((c) => (typeof c?.key === 'string' ? c.key : '')),
    profiles: [...profiles].sort(),
    scenarioCount: row.scenarioCount,
    plannedTrials: num(config.jobCount),
    ...counts,
    passRate: num(stats?.run?.passRate?.rate),
  };
}
