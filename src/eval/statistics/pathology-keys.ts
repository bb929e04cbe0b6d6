// The pathology keys in the order reports list them (loop breaks first, then nudges, repairs and
// the rest), declared with the loop's vocabulary (journal/events/loop-vocabulary.ts): a runtime
// list, because summaries and tables need an order the union type cannot give.
import { PATHOLOGY_KEYS } from '../../journal/events/loop-vocabulary';

export { PATHOLOGY_KEYS };

const rank = new Map<string, number>(PATHOLOGY_KEYS.map((k, i) => [k, i]));

/** Known keys in list order, unknown ones (from newer recorders) after them, alphabetically. */
export function comparePathologyKeys(a: string, b: string): number {
  const ra = rank.get(a) ?? Infinity;
  const rb = rank.get(b) ?? Infinity;
  if (ra !== rb) return ra < rb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
