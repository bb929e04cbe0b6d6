import type { CallRecord } from './call-record';
import { callKey, type CallKeyMode } from './normalize-call-key';

/** OpenHands stops after 3 identical actions that all errored. */
export const ERROR_REPEAT_THRESHOLD = 3;

export interface ErrorRepeatBreak {
  kind: 'error_repeat_break';
  key: string;
  /** the shared result digest (error text or hash) */
  error: string;
  count: number;
  calls: CallRecord[];
}

/**
 * The latest call failed, and the same call has failed with the same error `threshold` times in the
 * given history — consecutive or not: back-to-back repeats are already caught by the repeat
 * detector, this also catches a model that retries a failing call between other calls. Pass only
 * the calls since the last user prompt if a new prompt should reset it (OpenHands interactive does).
 */
export function detectErrorRepeat(
  history: readonly CallRecord[],
  threshold = ERROR_REPEAT_THRESHOLD,
  keyMode: CallKeyMode = 'normalized',
): ErrorRepeatBreak | null {
  const latest = history[history.length - 1];
  if (latest?.outcome !== 'error') return null;
  const key = callKey(keyMode, latest.name, latest.arguments);
  const error = latest.resultDigest ?? '';
  const calls = history.filter(
    (c) => c.outcome === 'error' && (c.resultDigest ?? '') === error && callKey(keyMode, c.name, c.arguments) === key,
  );
  return calls.length >= threshold ? { kind: 'error_repeat_break', key, error, count: calls.length, calls } : null;
}
