// The loop profiles by name, and how a session's settings are resolved: the profile's cited values over
// the shared budgets, then each override layer in turn (environment, scenario, configuration axis).
import { closestName } from '../../common/closest-name';
import { DEFAULT_BUDGETS, DEFAULT_PROFILE, LOOP_PROFILE_NAMES, type LoopProfileName, type LoopSettings } from '../policies/loop-settings';
import { corvidProfile } from './corvid.profile';
import { dextoProfile } from './dexto.profile';
import { geminiCliProfile } from './gemini-cli.profile';
import { policiesOf, type LoopProfile } from './loop-profile';
import { loupeProfile } from './loupe.profile';
import { mcpAgentProfile } from './mcp-agent.profile';
import { opencodeProfile } from './opencode.profile';

export const LOOP_PROFILES: Readonly<Record<LoopProfileName, LoopProfile>> = {
  loupe: loupeProfile,
  corvid: corvidProfile,
  opencode: opencodeProfile,
  dexto: dextoProfile,
  'mcp-agent': mcpAgentProfile,
  'gemini-cli': geminiCliProfile,
};

export function isProfileName(name: string): name is LoopProfileName {
  return (LOOP_PROFILE_NAMES as readonly string[]).includes(name);
}

const profilePolicies = new Map<LoopProfileName, ReturnType<typeof policiesOf>>();

/** The profile's settings, or an error naming the closest profile. */
export function profileSettings(name: string): LoopSettings {
  if (!isProfileName(name)) {
    const near = closestName(name, LOOP_PROFILE_NAMES);
    throw new Error(
      `unknown loop profile "${name}"${near ? ` (did you mean "${near}"?)` : ''}; profiles: ${LOOP_PROFILE_NAMES.join(', ')}`,
    );
  }
  // read once per profile: every session resolves its settings, and the conversion showed in profiles
  let policies = profilePolicies.get(name);
  if (!policies) profilePolicies.set(name, (policies = policiesOf(LOOP_PROFILES[name])));
  return { profile: name, ...DEFAULT_BUDGETS, ...policies, pruneProtectedTools: [...policies.pruneProtectedTools] };
}

export const DEFAULT_LOOP_SETTINGS: Readonly<LoopSettings> = profileSettings(DEFAULT_PROFILE);

/**
 * The profile named by the last layer that names one (default: loupe), then every layer's other
 * settings in order; an undefined value overrides nothing.
 */
export function resolveLoopSettings(...layers: Array<Partial<LoopSettings> | undefined>): LoopSettings {
  const profile = layers.reduce<string>((p, l) => l?.profile ?? p, DEFAULT_PROFILE);
  const settings = profileSettings(profile);
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (value !== undefined && key !== 'profile') (settings as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return settings;
}
