import type { CallRecord } from './call-record';
import { normalizeCallKey } from './normalize-call-key';

/** Spec constants table: MAX_REPEATS = 2 repeats allowed, so the 3rd identical call breaks. */
export const MAX_REPEATS = 2;
export const REPEAT_BREAK_THRESHOLD = MAX_REPEATS + 1;

export interface RepeatBreak {
  kind: 'repeat_break';
  key: string;
  /** length of the identical run ending at the latest call */
  count: number;
  calls: CallRecord[];
}

/** The latest `threshold` calls are the same normalized call (opencode's doom loop, but across turns). */
export function detectRepeat(history: readonly CallRecord[], threshold = REPEAT_BREAK_THRESHOLD): RepeatBreak | null {
  if (history.length === 0) return null;
  const keys = history.map((c) => normalizeCallKey(c.name, c.arguments));
  const key = keys[keys.length - 1];
  let start = keys.length - 1;
  while (start > 0 && keys[start - 1] === key) start--;
  const count = keys.length - start;
  return count >= threshold ? { kind: 'repeat_break', key, count, calls: history.slice(start) } : null;
}
