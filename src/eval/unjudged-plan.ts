// Which planned trials no check will judge, said before the run starts: a scenario run under a
// profile it was not written for is judged by its success criteria, and without any its trials come
// out unjudged (never passed). The list is chosen as the trial runner chooses it (`judgedAs`), so the
// warning and the verdict cannot disagree. Pure.
import type { JudgedBy } from './eval-types';
import { configurationsFor, profileOf, type Configuration } from './run-plan';
import type { Scenario } from './scenario/scenario';
import { checksOf, judgedAs, type TrialMode } from './trials/trial-verdict';

export interface UnjudgedPlan {
  scenario: Pick<Scenario, 'id' | 'file'>;
  profile: string;
  /** the list its trials are judged by, empty */
  list: JudgedBy;
}

/** The checks a trial judged by this list runs: the list, and those taken out of it at load (which fail). */
function checkCount(scenario: Scenario, list: JudgedBy, profile: string): number {
  const { list: checks, never } = checksOf(scenario, list, profile);
  return checks.length + never.length;
}

/** One entry per scenario and profile whose trials will be judged by an empty list. */
export function unjudgedPlan(
  scenarios: readonly Scenario[],
  configs: readonly Configuration[],
  mode: TrialMode,
  judge?: 'auto' | 'success',
): UnjudgedPlan[] {
  const out: UnjudgedPlan[] = [];
  const seen = new Set<string>();
  for (const scenario of scenarios) {
    for (const config of configurationsFor(scenario, configs.length ? configs : [{ key: '', overrides: {} }])) {
      const job = { scenario, config };
      const list = judgedAs(job, mode, judge);
      const profile = profileOf(job);
      const key = `${scenario.file}\u0000${scenario.id}\u0000${profile}`;
      if (checkCount(scenario, list, profile) > 0 || seen.has(key)) continue;
      seen.add(key);
      out.push({ scenario: { id: scenario.id, file: scenario.file }, profile, list });
    }
  }
  return out;
}

/** `loupe: FILE: scenario ID has no success criteria for profile P: its trials will be unjudged` */
export function unjudgedWarning(p: UnjudgedPlan): string {
  const what = p.list === 'success' ? 'success criteria' : 'expectations';
  return `loupe: ${p.scenario.file}: scenario ${p.scenario.id} has no ${what} for profile ${p.profile}: its trials will be unjudged`;
}
