import type { CallRecord } from './call-record';
import { callKey, type CallKeyMode } from './normalize-call-key';

// Beyond the spec (its gap list): opencode misses A,B,A,B (#47759); gemini-cli checks periods 1–5.
// Period 1 is left to the repeat detector. Default 3 repetitions: gemini's 5 is sized for 100
// turns — with 25 iterations a period-5 cycle ×5 needs 25 calls and could never fire before
// max_iterations — while OpenHands breaks on A/B×3, and 3 matches the repeat threshold (a period-1
// cycle ×3 is exactly a repeat_break).
export const CYCLE_MIN_PERIOD = 2;
export const CYCLE_MAX_PERIOD = 5;
export const CYCLE_REPETITIONS = 3;

export interface CycleOptions {
  minPeriod?: number;
  maxPeriod?: number;
  repetitions?: number;
  keyMode?: CallKeyMode;
}

export interface CycleBreak {
  kind: 'cycle_break';
  period: number;
  /** full consecutive repetitions ending at the latest call */
  repetitions: number;
  /** normalized keys of one cycle, in call order */
  cycle: string[];
  calls: CallRecord[];
}

/** The latest calls are one sequence of 2–5 distinct-enough calls repeated back to back. */
export function detectCycle(history: readonly CallRecord[], options: CycleOptions = {}): CycleBreak | null {
  const { minPeriod = CYCLE_MIN_PERIOD, maxPeriod = CYCLE_MAX_PERIOD, repetitions = CYCLE_REPETITIONS, keyMode = 'normalized' } = options;
  const keys = history.map((c) => callKey(keyMode, c.name, c.arguments));
  const n = keys.length;
  for (let p = Math.max(2, minPeriod); p <= maxPeriod; p++) {
    const need = p * repetitions;
    if (n < need) break;
    let periodic = true;
    for (let i = n - need + p; i < n && periodic; i++) periodic = keys[i] === keys[i - p];
    if (!periodic) continue;
    const cycle = keys.slice(n - p);
    if (!isPrimitive(cycle)) continue;
    let start = n - need;
    while (start > 0 && keys[start - 1] === keys[start - 1 + p]) start--;
    const reps = Math.floor((n - start) / p);
    return { kind: 'cycle_break', period: p, repetitions: reps, cycle, calls: history.slice(n - reps * p) };
  }
  return null;
}

/** False when the sequence is itself a repetition of a shorter one (A,A or A,B,A,B). */
function isPrimitive(seq: readonly string[]): boolean {
  for (let d = 1; d < seq.length; d++) {
    if (seq.length % d === 0 && seq.every((k, i) => k === seq[i % d])) return false;
  }
  return true;
}
