// How trials are grouped for summaries and comparisons: by cell (scenario × model × configuration),
// by model, by configuration, or all together. Groups come back sorted so that every report,
// stored summary and test sees the same order whatever order the trials finished in.
import type { TrialOutcome } from './statistics-types';

export type GroupLevel = 'cell' | 'model' | 'config' | 'run';

type CellFields = Pick<TrialOutcome, 'scenarioId' | 'model' | 'configKey'>;

/** `scenarioId|model|configKey`: the unit whose trials are the n of pass@k and pass^k */
export function cellKey(t: CellFields): string {
  return `${t.scenarioId}|${t.model}|${t.configKey}`;
}

/** identifies one trial across runs: its cell and its 1-based index */
export function trialKey(t: CellFields & Pick<TrialOutcome, 'trial'>): string {
  return `${cellKey(t)}#${t.trial}`;
}

/** ordinal (code unit) comparison: locale-independent, so the order is the same on every machine */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** the grouping key of a trial at a level; the run level has the single key `run` */
export function keyAt(level: GroupLevel, t: CellFields): string {
  switch (level) {
    case 'cell':
      return cellKey(t);
    case 'model':
      return t.model;
    case 'config':
      return t.configKey;
    case 'run':
      return 'run';
  }
}

export interface TrialGroup<T> {
  key: string;
  /** the first trial's cell fields, so that callers need not split the key apart */
  sample: CellFields;
  trials: T[];
}

/**
 * Groups trials at a level, sorted: cells by scenario, then model, then configuration (compared
 * field by field, not as the joined key); models and configurations by name.
 */
export function groupTrials<T extends CellFields>(trials: readonly T[], level: GroupLevel): TrialGroup<T>[] {
  const groups = new Map<string, TrialGroup<T>>();
  for (const t of trials) {
    const key = keyAt(level, t);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, sample: { scenarioId: t.scenarioId, model: t.model, configKey: t.configKey }, trials: [] }));
    g.trials.push(t);
  }
  return [...groups.values()].sort((a, b) => compareGroups(level, a.sample, b.sample) || compareStrings(a.key, b.key));
}

function compareGroups(level: GroupLevel, a: CellFields, b: CellFields): number {
  if (level === 'model') return compareStrings(a.model, b.model);
  if (level === 'config') return compareStrings(a.configKey, b.configKey);
  if (level === 'run') return 0;
  return compareStrings(a.scenarioId, b.scenarioId) || compareStrings(a.model, b.model) || compareStrings(a.configKey, b.configKey);
}
