// The pathology keys in the order reports list them (loop breaks first, then nudges, repairs and
// the rest). A runtime list, because summaries and tables need an order the union type cannot give.
import type { PathologyKey } from './statistics-types';

export const PATHOLOGY_KEYS = [
  'repeat_break',
  'same_tool_break',
  'cycle_break',
  'error_repeat_break',
  'content_loop_break',
  'max_iterations',
  'nudge.promisedAction',
  'nudge.tooShort',
  'nudge.wroteButDidntAct',
  'nudge.askedInsteadOfActing',
  'nudge.loopDetected',
  'doom_loop_asked',
  'nudges_exhausted',
  'mid_chain_nudge',
  'hallucination_stripped',
  'repair.tool_name_repaired',
  'repair.tool_args_normalized',
  'repair.tool_args_coerced',
  'repair.tool_call_dropped',
  'context_overflow',
  'model_reloaded',
  'invariant_violation',
] as const satisfies readonly PathologyKey[];

// fails to compile when a key is added to PathologyKey but not to the list above
type Missing = Exclude<PathologyKey, (typeof PATHOLOGY_KEYS)[number]>;
const exhaustive: [Missing] extends [never] ? true : Missing = true;
void exhaustive;

const rank = new Map<string, number>(PATHOLOGY_KEYS.map((k, i) => [k, i]));

/** Known keys in list order, unknown ones (from newer recorders) after them, alphabetically. */
export function comparePathologyKeys(a: string, b: string): number {
  const ra = rank.get(a) ?? Infinity;
  const rb = rank.get(b) ?? Infinity;
  if (ra !== rb) return ra < rb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
