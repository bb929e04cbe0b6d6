// How a trial is judged. Scripted runs (the stand-in replays the script): the exact expectations.
// Live runs (a real model): the success criteria — outcomes and budgets, not the path. Both: the
// invariants, whose violation is a Loupe bug and makes the trial an error that says so.
import { evaluateExpectations, type ExpectationResult } from '../expectations/evaluate-expectations';
import type { RecordedSession } from '../expectations/recorded-session';
import { checkInvariants, type InvariantViolation } from '../invariants/check-invariants';
import type { Scenario } from '../scenario/scenario';
import type { Expectation } from '../scenario/scenario-schema';
import { profileOf, type Job } from '../run-plan';

export type TrialMode = 'scripted' | 'live';

export interface TrialVerdict {
  /** unjudged: no check applied (invariants alone do not judge a trial); never a pass */
  status: 'passed' | 'failed' | 'unjudged' | 'error';
  checks: ExpectationResult[];
  failed: ExpectationResult[];
  violations: InvariantViolation[];
  /** set when the trial is an error */
  error?: string;
}

export function judgeTrial(
  session: RecordedSession,
  checks: { expect: readonly Expectation[]; success?: readonly Expectation[]; unsatisfiable?: Scenario['unsatisfiable'] },
  mode: TrialMode,
  backend: { realModel?: boolean } = {},
): TrialVerdict {
  const violations = checkInvariants(session);
  const list = mode === 'scripted' ? 'expect' : 'success';
  // expectations that can never hold or are malformed (taken out at load) cannot pass
  const never = (checks.unsatisfiable?.[list] ?? []).map((p): ExpectationResult => ({
    expectation: `${p.field}: ${p.message}`,
    passed: false,
    detail: `${p.file}:${p.line}: cannot pass as written`,
  }));
  const results = [...evaluateExpectations(checks[list] ?? [], session), ...never];
  const failed = results.filter((r) => !r.passed);
  if (violations.length) {
    const error = `Loupe bug: invariant violated: ${violations.map((v) => `${v.invariant} (${v.detail})`).join('; ')}`;
    return { status: 'error', checks: results, failed, violations, error };
  }
  const infrastructure = backend.realModel ? infrastructureFailure(session) : undefined;
  if (infrastructure) return { status: 'error', checks: results, failed, violations, error: infrastructure };
  if (!results.length)
    return {
      status: 'unjudged',
      checks: results,
      failed,
      violations,
      error: `no ${list === 'expect' ? 'expectations' : 'success criteria'} apply to this trial`,
    };
  return { status: failed.length ? 'failed' : 'passed', checks: results, failed, violations };
}

/**
 * Against a real Ollama, a session ended by its provider (Ollama down, the model missing, a timeout,
 * a server error) or by the wait for a slot says nothing about the model: the trial is an error,
 * counted apart, whatever its success criteria say (none at all would otherwise pass it). Scripted
 * runs inject such faults on purpose and judge them by their expectations.
 */
export function infrastructureFailure(session: RecordedSession): string | undefined {
  const reason = session.terminationReason;
  if (reason !== 'provider_error' && reason !== 'slot_timeout') return undefined;
  const last = [...session.events].reverse().find((e) => e.type === 'error')?.payload as { kind?: string; message?: string } | undefined;
  const what = reason === 'slot_timeout' ? 'no slot in time' : 'the provider failed';
  return `${what}${last?.kind ? ` (${last.kind})` : ''}: ${last?.message ?? reason}`;
}

/** Files the checks of this mode read from the workspace. */
export function filesToRead(checks: { expect: readonly Expectation[]; success?: readonly Expectation[] }, mode: TrialMode): string[] {
  const list = mode === 'scripted' ? checks.expect : (checks.success ?? []);
  return list.flatMap((e) => ('file' in e ? [e.file] : []));
}

/**
 * How a trial is judged: by its expectations only when scripted under a profile its scenario was
 * written for, and when the scenario has any (one with `success` alone is judged by it everywhere).
 */
export function judgedAs(job: Pick<Job, 'scenario' | 'config'>, mode: TrialMode, judge?: 'auto' | 'success'): TrialMode {
  const foreign = !job.scenario.profiles.includes(profileOf(job));
  const { expect, unsatisfiable } = job.scenario;
  const written = expect.length > 0 || (unsatisfiable?.expect.length ?? 0) > 0;
  return foreign || judge === 'success' || !written ? 'live' : mode;
}
