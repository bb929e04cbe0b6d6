// corvid's repeat guard (corvid-agent notes §2.2, step 3; direct-process.spec.md invariant 3): a
// reply's calls are checked before any of them runs, so the third identical call never executes.
// Loupe's default checks after a step's calls ran (their outcomes feed the other detectors).
import type { CallRecord } from './call-record';
import type { CallKeyMode } from './normalize-call-key';
import { detectRepeat, type RepeatBreak } from './repeat-detector';

/**
 * The repeat the reply's calls would complete, checked call by call on the history as it would be
 * (the calls so far, then this reply's up to each one); null when none would.
 */
export function detectRepeatBeforeRun(
  history: readonly CallRecord[],
  replyCalls: ReadonlyArray<Pick<CallRecord, 'name' | 'arguments'>>,
  threshold: number,
  keyMode: CallKeyMode,
  iteration: number,
): RepeatBreak | null {
  if (threshold <= 0) return null;
  const prospective = [...history];
  for (const call of replyCalls) {
    prospective.push({ iteration, name: call.name, arguments: call.arguments });
    const repeat = detectRepeat(prospective, threshold, keyMode);
    if (repeat) return repeat;
  }
  return null;
}
