// How a trial is judged. Scripted runs (the stand-in replays the script): the exact expectations —
// `expect` under a profile the scenario was written for, its `expect_by_profile` list under another
// profile that has one. Live runs (a real model), simulated ones (a persona follows the plan
// stochastically, so no exact path holds), and other profiles: the success criteria — outcomes
// and budgets, not the path. All: the invariants, whose violation is a Loupe bug and makes the trial
// an error that says so.
import { evaluateExpectations, type ExpectationResult } from '../expectations/evaluate-expectations';
import { eventsOfType } from '../../journal/journal-events';
import type { RecordedSession } from '../expectations/recorded-session';
import { checkInvariants, type InvariantViolation } from '../invariants/check-invariants';
import type { Scenario } from '../scenario/scenario';
import type { Expectation } from '../scenario/scenario-schema';
import type { ScenarioProblem } from '../scenario/scenario-errors';
import type { JudgedBy } from '../eval-types';
import { profileOf, type Job } from '../run-plan';

/** scripted: the stand-in replays the script; live: a real Ollama; sim: personas on the stand-in (`sim:<persona>`) */
export type TrialMode = 'scripted' | 'live' | 'sim';
export type { JudgedBy };

type Checks = Pick<Scenario, 'expectByProfile' | 'unsatisfiable'> & { expect: readonly Expectation[]; success?: readonly Expectation[] };

/** The list `by` names (a mode names its usual one: scripted → expect, live and sim → success), and its false entries. */
export function checksOf(
  checks: Checks,
  by: JudgedBy | TrialMode,
  profile?: string,
): { by: JudgedBy; list: readonly Expectation[]; never: ScenarioProblem[] } {
  const judged: JudgedBy = by === 'scripted' ? 'expect' : by === 'live' || by === 'sim' ? 'success' : by;
  if (judged !== 'expect_by_profile') return { by: judged, list: checks[judged] ?? [], never: checks.unsatisfiable?.[judged] ?? [] };
  const p = profile as keyof NonNullable<Scenario['expectByProfile']>;
  return { by: judged, list: checks.expectByProfile?.[p] ?? [], never: checks.unsatisfiable?.expectByProfile?.[p] ?? [] };
}

const NONE_APPLY: Record<JudgedBy, string> = {
  expect: 'no expectations',
  expect_by_profile: "no expectations for this trial's profile",
  success: 'no success criteria',
};

export interface TrialVerdict {
  /** unjudged: no check applied (invariants alone do not judge a trial); never a pass */
  status: 'passed' | 'failed' | 'unjudged' | 'error';
  checks: ExpectationResult[];
  failed: ExpectationResult[];
  violations: InvariantViolation[];
  /** set when the trial is an error */
  error?: string;
}

/**
 * Judges a recorded trial by one list of checks (`by`; `expect_by_profile` reads the list of
 * `opts.profile`) and the invariants.
 */
export function judgeTrial(
  session: RecordedSession,
  checks: Checks,
  by: JudgedBy | TrialMode,
  opts: { realModel?: boolean; profile?: string } = {},
): TrialVerdict {
  const violations = checkInvariants(session);
  const { by: judged, list, never: falseChecks } = checksOf(checks, by, opts.profile);
  // expectations that can never hold or are malformed (taken out at load) cannot pass
  const never = falseChecks.map((p): ExpectationResult => ({
    expectation: `${p.field}: ${p.message}`,
    passed: false,
    detail: `${p.file}:${p.line}: cannot pass as written`,
  }));
  const results = [...evaluateExpectations(list, session), ...never];
  const failed = results.filter((r) => !r.passed);
  if (violations.length) {
    const error = `Loupe bug: invariant violated: ${violations.map((v) => `${v.invariant} (${v.detail})`).join('; ')}`;
    return { status: 'error', checks: results, failed, violations, error };
  }
  const infrastructure = opts.realModel ? infrastructureFailure(session) : undefined;
  if (infrastructure) return { status: 'error', checks: results, failed, violations, error: infrastructure };
  if (!results.length)
    return {
      status: 'unjudged',
      checks: results,
      failed,
      violations,
      error: `${NONE_APPLY[judged]} apply to this trial`,
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
  const last = eventsOfType(session.events, 'error').at(-1)?.payload;
  const what = reason === 'slot_timeout' ? 'no slot in time' : 'the provider failed';
  return `${what}${last?.kind ? ` (${last.kind})` : ''}: ${last?.message ?? reason}`;
}

/** Files the list of checks that judges the trial reads from the workspace. */
export function filesToRead(checks: Checks, by: JudgedBy | TrialMode, profile?: string): string[] {
  return checksOf(checks, by, profile).list.flatMap((e) => ('file' in e ? [e.file] : []));
}

/**
 * Which list judges a trial. A scripted trial under a profile its scenario was written for: `expect`
 * (when it has any; one with `success` alone is judged by it everywhere); under another profile: that
 * profile's `expect_by_profile` list, where the scenario states one. Otherwise — a live model, a
 * simulated one, another profile's loop, `--judge success` — the success criteria.
 */
export function judgedAs(job: Pick<Job, 'scenario' | 'config'>, mode: TrialMode, judge?: 'auto' | 'success'): JudgedBy {
  if (mode === 'live' || mode === 'sim' || judge === 'success') return 'success';
  const profile = profileOf(job);
  const { expect, expectByProfile, unsatisfiable } = job.scenario;
  if (job.scenario.profiles.includes(profile)) {
    const written = expect.length > 0 || (unsatisfiable?.expect.length ?? 0) > 0;
    return written ? 'expect' : 'success';
  }
  const stated = expectByProfile?.[profile] !== undefined || unsatisfiable?.expectByProfile?.[profile] !== undefined;
  return stated ? 'expect_by_profile' : 'success';
}
