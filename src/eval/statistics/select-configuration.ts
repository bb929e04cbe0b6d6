// Comparing two configurations (two loop profiles, say) of one run, or across runs, as two runs are
// compared: the outcomes under each are selected and their selecting part of the configuration key
// dropped, so the same scenario × model × remaining configuration × trial pairs up.
import type { TrialOutcome } from './statistics-types';

export type ConfigurationSelector = { configKey: string } | { profile: string };

const parts = (key: string) => (key === '' ? [] : key.split(','));

export function outcomesUnder(outcomes: readonly TrialOutcome[], selector: ConfigurationSelector): TrialOutcome[] {
  if ('configKey' in selector) {
    return outcomes.filter((o) => o.configKey === selector.configKey).map((o) => ({ ...o, configKey: '' }));
  }
  const part = `profile=${selector.profile}`;
  return outcomes
    .filter((o) => parts(o.configKey).includes(part))
    .map((o) => ({
      ...o,
      configKey: parts(o.configKey)
        .filter((p) => p !== part)
        .join(','),
    }));
}
