// What a run will do: scenarios × models × configurations × trials. Configurations come from
// `--set key=v1,v2` axes over the scenario `config:` keys (several axes multiply); the jobs are
// grouped by model, so a model is loaded once and warmed before its trials are timed.
import type { Scenario } from './scenario/scenario';
import type { LoopProfileName } from '../process/policies/loop-settings';
import { configSchema } from '../session-spec/settings-schema';
import { unknownNameMessage } from '../common/closest-name';
import { STANDIN_DEFAULT_MODEL } from './standin-catalog-merge';

export interface ConfigAxis {
  key: string;
  values: unknown[];
}

/** One point of the configuration space: `key` is canonical (`a=1,b=x`; '' for the scenario's own settings). */
export interface Configuration {
  key: string;
  /** snake_case `config:` keys, as a scenario writes them */
  overrides: Record<string, unknown>;
}

export const CONFIG_KEYS = Object.keys(configSchema.shape);

function literal(text: string): unknown {
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

/** Parses `--set key=v1,v2` flags; every problem is named (unknown key, a value the key does not accept). */
export function parseAxes(sets: readonly string[]): { axes: ConfigAxis[]; problems: string[] } {
  const axes: ConfigAxis[] = [];
  const problems: string[] = [];
  for (const set of sets) {
    const eq = set.indexOf('=');
    if (eq <= 0 || eq === set.length - 1) {
      problems.push(`--set ${set}: expected key=value[,value…]`);
      continue;
    }
    const key = set.slice(0, eq).trim();
    if (!CONFIG_KEYS.includes(key)) {
      problems.push(`--set ${set}: ${unknownNameMessage('configuration key', key, CONFIG_KEYS)}`);
      continue;
    }
    if (axes.some((a) => a.key === key)) {
      problems.push(`--set ${set}: ${key} is already an axis (give its values in one --set, comma-separated)`);
      continue;
    }
    const values = set
      .slice(eq + 1)
      .split(',')
      .map((v) => literal(v.trim()));
    for (const value of values) {
      const parsed = configSchema.safeParse({ [key]: value });
      if (!parsed.success) problems.push(`--set ${key}=${String(value)}: ${parsed.error.issues[0].message}`);
    }
    axes.push({ key, values });
  }
  return { axes, problems };
}

/** Every combination of the axes' values (one configuration without axes: the scenarios' own). */
export function configurations(axes: readonly ConfigAxis[]): Configuration[] {
  let out: Configuration[] = [{ key: '', overrides: {} }];
  for (const axis of axes) {
    out = out.flatMap((c) =>
      axis.values.map((v) => ({
        key: c.key ? `${c.key},${axis.key}=${String(v)}` : `${axis.key}=${String(v)}`,
        overrides: { ...c.overrides, [axis.key]: v },
      })),
    );
  }
  return out;
}

export interface Job {
  scenario: Scenario;
  model: string;
  config: Configuration;
  /** 1-based */
  trial: number;
}

/**
 * The configurations one scenario runs under: the run's, and — unless the run varies the profile
 * itself — each of the profiles the scenario names, when it names several.
 */
export function configurationsFor(scenario: Pick<Scenario, 'profiles'>, configs: readonly Configuration[]): Configuration[] {
  if (scenario.profiles.length < 2 || configs.some((c) => 'profile' in c.overrides)) return [...configs];
  return configs.flatMap((c) =>
    scenario.profiles.map((profile) => ({
      key: c.key ? `profile=${profile},${c.key}` : `profile=${profile}`,
      overrides: { profile, ...c.overrides },
    })),
  );
}

/** The models of a run's jobs, in the order they run (the models given, else each scenario's own). */
export function plannedModels(scenarios: readonly Scenario[], models?: readonly string[]): string[] {
  return models?.length ? [...new Set(models)] : [...new Set(scenarios.map((s) => s.model ?? STANDIN_DEFAULT_MODEL))];
}

/** All jobs, grouped by model (models in the order given), then scenario, configuration and trial. */
export function planJobs(
  scenarios: readonly Scenario[],
  opts: { models?: readonly string[]; configs: readonly Configuration[]; trials: number },
): Job[] {
  const modelOf = (s: Scenario) => (opts.models?.length ? [...opts.models] : [s.model ?? STANDIN_DEFAULT_MODEL]);
  return plannedModels(scenarios, opts.models).flatMap((model) =>
    scenarios
      .filter((s) => modelOf(s).includes(model))
      .flatMap((scenario) =>
        configurationsFor(scenario, opts.configs).flatMap((config) =>
          Array.from({ length: opts.trials }, (_, i) => ({ scenario, model, config, trial: i + 1 })),
        ),
      ),
  );
}

/** The profile a job runs under: the configuration's, else the scenario's own (its first). */
export function profileOf(job: Pick<Job, 'scenario' | 'config'>): LoopProfileName {
  return (job.config.overrides.profile as LoopProfileName | undefined) ?? job.scenario.profiles[0];
}
