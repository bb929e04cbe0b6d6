// How a trial is judged. Scripted runs (the stand-in replays the script): the exact expectations.
// Live runs (a real model): the success criteria — outcomes and budgets, not the path. Both: the
// invariants, whose violation is a Loupe bug and makes the trial an error that says so.
import { evaluateExpectations, type ExpectationResult } from '../expectations/evaluate-expectations';
import type { RecordedSession } from '../expectations/recorded-session';
import { checkInvariants, type InvariantViolation } from '../invariants/check-invariants';
import type { Expectation } from '../scenario/scenario-schema';
import { profileOf, type Job } from '../run-plan';

export type TrialMode = 'scripted' | 'live';

export interface TrialVerdict {
  status: 'passed' | 'failed' | 'error';
  checks: ExpectationResult[];
  failed: ExpectationResult[];
  violations: InvariantViolation[];
  /** set when the trial is an error */
  error?: string;
}

export function judgeTrial(
  session: RecordedSession,
  checks: { expect: readonly Expectation[]; success?: readonly Expectation[] },
  mode: TrialMode,
): TrialVerdict {
  const violations = checkInvariants(session);
  const results = evaluateExpectations(mode === 'scripted' ? checks.expect : (checks.success ?? []), session);
  const failed = results.filter((r) => !r.passed);
  if (violations.length) {
    const error = `Loupe bug: invariant violated: ${violations.map((v) => `${v.invariant} (${v.detail})`).join('; ')}`;
    return { status: 'error', checks: results, failed, violations, error };
  }
  return { status: failed.length ? 'failed' : 'passed', checks: results, failed, violations };
}

/** Files the checks of this mode read from the workspace. */
export function filesToRead(checks: { expect: readonly Expectation[]; success?: readonly Expectation[] }, mode: TrialMode): string[] {
  const list = mode === 'scripted' ? checks.expect : (checks.success ?? []);
  return list.flatMap((e) => ('file' in e ? [e.file] : []));
}

/** How a trial is judged: by its expectations only when scripted under a profile its scenario was written for. */
export function judgedAs(job: Pick<Job, 'scenario' | 'config'>, mode: TrialMode, judge?: 'auto' | 'success'): TrialMode {
  const foreign = !job.scenario.profiles.includes(profileOf(job));
  return foreign || judge === 'success' ? 'live' : mode;
}
