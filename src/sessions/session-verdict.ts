// What a session page shows beside the loop: the verdict of the trial it ran for (a session ends
// "completed" whether or not its trial passed — termination and verdict are different things), and
// links into the trace store. Pure: rows in, plain values out.
import type { EvalTrialEntity } from '../database/entities';
import { cellKey } from '../eval/statistics/grouping';
import type { Recorded } from '../journal/session-query.repository';

export interface VerdictCheck {
  expectation: string;
  passed: boolean;
  /** why it failed (absent when it passed) */
  detail?: string;
}

/** The trial a session ran for, judged or not yet. */
export interface SessionVerdict {
  trialId: string;
  runId: string;
  /** the run's cell (scenario × model × configuration): `scenarioId|model|configKey` */
  cellKey: string;
  scenarioId: string;
  scenarioTitle: string;
  scenarioFile: string;
  model: string;
  trialIndex: number;
  attempt: number;
  /** the configuration's key ('' for the defaults) and its overrides */
  configKey: string;
  config: Record<string, unknown>;
  profile: string | null;
  mode: string;
  /** running until judged; then passed, failed, unjudged (no check applied), error, or interrupted */
  status: string;
  /** a check applied to it (a passed or failed verdict) */
  judged: boolean;
  checks: VerdictCheck[];
  failed: VerdictCheck[];
  invariantViolations: unknown[];
  error: string | null;
  durationMs: number | null;
  /** an interrupted trial: the attempt that reran it */
  replacedBy: string | null;
}

const asChecks = (xs: unknown[]): VerdictCheck[] =>
  xs.flatMap((x) => {
    if (!x || typeof x !== 'object') return [];
    const c = x as Record<string, unknown>;
    const check: VerdictCheck = { expectation: String(c.expectation ?? '?'), passed: c.passed === true };
    if (typeof c.detail === 'string' && c.detail) check.detail = c.detail;
    return [check];
  });

export function sessionVerdict(t: Recorded<EvalTrialEntity>, sessionConfig: Record<string, unknown> | null): SessionVerdict {
  const profile = t.metadata?.profile ?? sessionConfig?.profile;
  return {
    trialId: t.id,
    runId: t.runId,
    cellKey: cellKey({ scenarioId: t.scenarioId, model: t.model, configKey: t.configKey }),
    scenarioId: t.scenarioId,
    scenarioTitle: t.scenarioTitle,
    scenarioFile: t.scenarioFile,
    model: t.model,
    trialIndex: t.trialIndex,
    attempt: t.attempt,
    configKey: t.configKey,
    config: t.config ?? {},
    profile: typeof profile === 'string' ? profile : null,
    mode: t.mode,
    status: t.status,
    judged: t.status === 'passed' || t.status === 'failed',
    checks: asChecks(t.expectations ?? []),
    failed: asChecks(t.failedExpectations ?? []),
    invariantViolations: t.invariantViolations ?? [],
    error: t.error,
    durationMs: t.durationMs,
    replacedBy: t.replacedBy,
  };
}

/** The template with its `{traceId}` and `{spanId}` filled in (URL-encoded); null without a template. */
export function traceUrl(template: string | undefined, ids: { traceId: string; spanId?: string | null }): string | null {
  if (!template || !ids.traceId) return null;
  return template.replaceAll('{traceId}', encodeURIComponent(ids.traceId)).replaceAll('{spanId}', encodeURIComponent(ids.spanId ?? ''));
}
