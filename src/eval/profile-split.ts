// Two profiles of one run compared as two runs: the run's final trials under each profile, with
// the profile taken out of their configuration keys so that the same scenario, model and other
// settings meet in one cell. Pure.
import type { TrialOutcome } from './statistics/statistics-types';

/** `profile=corvid,num_ctx=4096` → `num_ctx=4096`; keys without a profile are unchanged. */
export function withoutProfile(configKey: string): string {
  return configKey
    .split(',')
    .filter((part) => part && !part.startsWith('profile='))
    .join(',');
}

/** The outcomes of trials that ran under `profile`, keyed as if the profile were not a setting. */
export function outcomesUnderProfile(
  trials: ReadonlyArray<{ profile: string | null; outcome: TrialOutcome }>,
  profile: string,
): TrialOutcome[] {
  return trials.filter((t) => t.profile === profile).map((t) => ({ ...t.outcome, configKey: withoutProfile(t.outcome.configKey) }));
}
