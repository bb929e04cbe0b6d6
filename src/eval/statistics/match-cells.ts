// Which cells of two sets of trials may be compared: the same key (scenario × model × remaining
// configuration) and the same scenario file and tool definitions on both sides. A cell whose
// scenario was edited between runs measures something else; comparing it would call the edit a
// regression or an improvement.
import { groupTrials } from './grouping';
import type { ComparisonStatus } from './comparison-types';
import type { TrialOutcome } from './statistics-types';

export interface MatchedCell {
  key: string;
  a: TrialOutcome[];
  b: TrialOutcome[];
  /** compared or not_compared are settled later, from the judged counts */
  status: Extract<ComparisonStatus, 'compared' | 'changed' | 'only_in_a' | 'only_in_b'>;
  changed?: Array<'scenario' | 'tool_schema'>;
  unverified?: boolean;
}

/** Older runs stored 16 hex characters of the hash: a prefix of the full one is the same hash. */
export function sameHash(x: string, y: string): boolean {
  return x.length <= y.length ? y.startsWith(x) : x.startsWith(y);
}

type Verdict = 'same' | 'differs' | 'unknown';

function compareField(a: readonly TrialOutcome[], b: readonly TrialOutcome[], field: 'scenarioHash' | 'toolSchemaHash'): Verdict {
  // a trial that errored before its tools were made has no tool hash: the side's other trials vouch for it
  const known = (ts: readonly TrialOutcome[]) => [...new Set(ts.flatMap((t) => (t[field] ? [t[field]] : [])))];
  const [ka, kb] = [known(a), known(b)];
  if (!ka.length || !kb.length) return 'unknown';
  return ka.every((x) => kb.every((y) => sameHash(x, y))) ? 'same' : 'differs';
}

/** every cell of either side, sorted as the summaries are, with whether its two sides match */
export function matchCells(a: readonly TrialOutcome[], b: readonly TrialOutcome[]): MatchedCell[] {
  const ga = new Map(groupTrials(a, 'cell').map((g) => [g.key, g.trials]));
  const gb = new Map(groupTrials(b, 'cell').map((g) => [g.key, g.trials]));
  return groupTrials([...a, ...b], 'cell').map(({ key }) => {
    const [ta, tb] = [ga.get(key) ?? [], gb.get(key) ?? []];
    if (!tb.length) return { key, a: ta, b: tb, status: 'only_in_a' };
    if (!ta.length) return { key, a: ta, b: tb, status: 'only_in_b' };
    const scenario = compareField(ta, tb, 'scenarioHash');
    const tools = compareField(ta, tb, 'toolSchemaHash');
    const changed = [...(scenario === 'differs' ? ['scenario' as const] : []), ...(tools === 'differs' ? ['tool_schema' as const] : [])];
    if (changed.length) return { key, a: ta, b: tb, status: 'changed', changed };
    return { key, a: ta, b: tb, status: 'compared', ...(scenario === 'unknown' || tools === 'unknown' ? { unverified: true } : {}) };
  });
}
