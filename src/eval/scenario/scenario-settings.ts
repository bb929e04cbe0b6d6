// A scenario's `config:` (and a run's `--set` configuration) in the loop's own terms: every key but
// the command tool's is a LoopSettings key — the compiler checks it, so a key added on one side and
// not the other cannot be silently ignored.
import { camelKeys, keysWithin, type CamelKeys } from '../../common/camel-keys';
import type { LoopSettings } from '../../process/process-types';
import type { ScenarioDocument } from './scenario-schema';

export interface ScenarioSettings {
  loopSettings: Partial<LoopSettings>;
  commandTimeoutMs?: number;
  commandSandbox?: 'auto' | 'bubblewrap' | 'none';
}

export function settingsOf(config: ScenarioDocument['config'] | Record<string, unknown>): ScenarioSettings {
  const { commandTimeoutMs, commandSandbox, ...loopSettings } = camelKeys(config as ScenarioDocument['config']);
  return { loopSettings: keysWithin<LoopSettings>()(loopSettings), commandTimeoutMs, commandSandbox };
}

// fails to compile when a loop setting has no `config:` key (so `--set` could not vary it)
type Unsettable = Exclude<keyof LoopSettings, keyof CamelKeys<NonNullable<ScenarioDocument['config']>>>;
const everySettingHasAKey: [Unsettable] extends [never] ? true : Unsettable = true;
void everySettingHasAKey;
