import type { CallRecord } from './call-record';
import { callKey, type CallKeyMode } from './normalize-call-key';

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
export function detectRepeat(
  history: readonly CallRecord[],
  threshold = REPEAT_BREAK_THRESHOLD,
  keyMode: CallKeyMode = 'normalized',
): RepeatBreak | null {
  if (history.length === 0) return null;
  const keys = history.map((c) => callKey(keyMode, c.name, c.arguments));
  const key = keys[keys.length - 1];
  let start = keys.length - 1;
  while (start > 0 && keys[start - 1] === key) start--;
  const count = keys.length - start;
  return count >= threshold ? { kind: 'repeat_break', key, count, calls: history.slice(start) } : null;
}

/**
 * opencode's doom-loop check (stream-processor-deep-dive.md): within one reply, the positions whose
 * call completes a run of `threshold` identical calls — checked as each call arrives, before it runs.
 */
export function replyRepeatPositions(
  calls: ReadonlyArray<Pick<CallRecord, 'name' | 'arguments'>>,
  threshold: number,
  keyMode: CallKeyMode = 'exact',
): Set<number> {
  const positions = new Set<number>();
  if (threshold <= 0) return positions;
  const keys = calls.map((c) => callKey(keyMode, c.name, c.arguments));
  for (let i = threshold - 1; i < keys.length; i++) {
    if (keys.slice(i - threshold + 1, i + 1).every((k) => k === keys[i])) positions.add(i);
  }
  return positions;
}
