// A session's settings (a scenario's `config:`, an API session's `options`, a run's `--set`
// configuration) in the loop's own terms: every key but the command tool's is a LoopSettings key —
// the compiler checks it, so a key added on one side and not the other cannot be silently ignored.
import { camelKeys, keysWithin, type CamelKeys } from '../common/camel-keys';
import type { LoopSettings } from '../process/process-types';
import type { SettingsDocument } from './settings-schema';

export interface SessionSettings {
  loopSettings: Partial<LoopSettings>;
  commandTimeoutMs?: number;
  commandSandbox?: 'auto' | 'bubblewrap' | 'none';
}

export function settingsOf(config: SettingsDocument | Record<string, unknown>): SessionSettings {
  const { commandTimeoutMs, commandSandbox, ...loopSettings } = camelKeys(config as SettingsDocument);
  return { loopSettings: keysWithin<LoopSettings>()(loopSettings), commandTimeoutMs, commandSandbox };
}

// fails to compile when a loop setting has no `config:` key (so `--set` could not vary it)
type Unsettable = Exclude<keyof LoopSettings, keyof CamelKeys<NonNullable<SettingsDocument>>>;
const everySettingHasAKey: [Unsettable] extends [never] ? true : Unsettable = true;
void everySettingHasAKey;
