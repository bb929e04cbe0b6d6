// A trial's row as the trial runner writes it (trialRow), and read back as what a run reports: its
// outcome for the statistics, and its report line. A resumed run and a queued run report trials finished by other processes this way, so
// their statistics are computed from exactly what an uninterrupted run computes them from. Pure.
import type { TrialResult } from '../eval-recorder';
import type { TrialReport } from '../eval-types';
import { profileOf, type Job } from '../run-plan';
import type { TrialLatency, TrialOutcome } from '../statistics/statistics-types';
import { provenanceFromMetadata } from './trial-provenance';
import type { JudgedBy } from './trial-verdict';

export const EMPTY_LATENCY: TrialLatency = {
  slotWaitMs: 0,
  loadMs: 0,
  serverQueueMs: 0,
  prefillMs: 0,
  decodeMs: 0,
  firstTokenMs: null,
  workingMs: 0,
};

/** A trial row as stored (the entity) or as journaled (EvalTrialRow). */
export interface TrialRowView {
  id: string;
  scenarioId: string;
  model: string;
  configKey: string;
  trialIndex: number;
  status: string;
  iterations: number;
  outcome: Record<string, unknown> | null;
  sessionId: string | null;
  expectations: unknown[];
  failedExpectations: unknown[];
  invariantViolations: unknown[];
  eventCount: number;
  durationMs: number | null;
  error: string | null;
  /** what the trial ran against (provenance: see trials/trial-provenance.ts) */
  metadata?: Record<string, unknown>;
  scenarioHash?: string;
}
type Row = TrialRowView;

/** The statuses of a trial that ran to a verdict (not running, not interrupted). */
export const FINAL_TRIAL_STATUSES: readonly string[] = ['passed', 'failed', 'unjudged', 'error'];

export function isFinal(row: { status: string }): boolean {
  return FINAL_TRIAL_STATUSES.includes(row.status);
}

/** The row of a trial that ran to its end (judged, or an error); `sessionId` null: its session never started. */
export function trialRow(
  report: TrialReport,
  outcome: TrialOutcome,
  at: { sessionId: string | null; metadata: Record<string, unknown> },
): TrialResult {
  return {
    // the session's rows precede this one in the journal, so the reference holds once written
    sessionId: at.sessionId,
    status: report.status,
    expectations: report.expectations,
    failedExpectations: report.failedExpectations,
    iterations: report.iterations,
    eventCount: report.events,
    durationMs: report.durationMs,
    error: report.error ?? null,
    metadata: at.metadata,
    outcome: {
      pathologies: outcome.pathologies,
      tokens: outcome.tokens,
      latency: outcome.latency,
      terminationReason: outcome.terminationReason,
    },
    invariantViolations: report.invariantViolations,
  };
}

export function outcomeFromRow(t: Row): TrialOutcome {
  const o = (t.outcome ?? {}) as Partial<TrialOutcome>;
  return {
    scenarioId: t.scenarioId,
    model: t.model,
    configKey: t.configKey,
    trial: t.trialIndex,
    status: t.status as TrialOutcome['status'],
    terminationReason: o.terminationReason ?? null,
    pathologies: o.pathologies ?? {},
    tokens: o.tokens ?? { input: 0, output: 0 },
    iterations: t.iterations,
    latency: o.latency ?? EMPTY_LATENCY,
    ...pairingKeys(t),
  };
}

/** The scenario and tool-schema hashes and the seed a comparison pairs and checks trials by. */
function pairingKeys(t: Row): Pick<TrialOutcome, 'scenarioHash' | 'toolSchemaHash' | 'seed'> {
  const m = t.metadata ?? {};
  return {
    ...(t.scenarioHash ? { scenarioHash: t.scenarioHash } : {}),
    ...(typeof m.toolSchemaHash === 'string' ? { toolSchemaHash: m.toolSchemaHash } : {}),
    ...(typeof m.seed === 'number' ? { seed: m.seed } : {}),
  };
}

export function reportFromRow(t: Row, job: Job, judgedBy: JudgedBy): TrialReport {
  const o = (t.outcome ?? {}) as Partial<TrialOutcome>;
  const checks = t.expectations as TrialReport['expectations'];
  const provenance = provenanceFromMetadata(t.metadata);
  return {
    trialId: t.id,
    scenarioId: job.scenario.id,
    title: job.scenario.title,
    file: job.scenario.file,
    spec: job.scenario.spec,
    model: t.model,
    trial: t.trialIndex,
    configKey: t.configKey,
    profile: profileOf(job),
    judgedBy,
    sessionId: t.sessionId,
    traceId: null,
    status: t.status as TrialReport['status'],
    terminationReason: o.terminationReason ?? null,
    expectations: checks,
    failedExpectations: t.failedExpectations as TrialReport['failedExpectations'],
    invariantViolations: t.invariantViolations as TrialReport['invariantViolations'],
    iterations: t.iterations,
    events: t.eventCount,
    durationMs: t.durationMs ?? 0,
    ...(t.error ? { error: t.error } : {}),
    ...(provenance ? { provenance } : {}),
  };
}
