import type { CallRecord } from './call-record';
import type { CallKeyMode } from './normalize-call-key';
import type { CycleBreak, CycleOptions } from './cycle-detector';
import { detectCycle } from './cycle-detector';
import type { ErrorRepeatBreak } from './error-repeat-detector';
import { detectErrorRepeat } from './error-repeat-detector';
import type { MaxIterationsBreak } from './max-iterations';
import { detectMaxIterations } from './max-iterations';
import type { RepeatBreak } from './repeat-detector';
import { detectRepeat } from './repeat-detector';
import type { SameToolBreak } from './same-tool-detector';
import { detectSameTool } from './same-tool-detector';

export interface LoopControlConfig {
  /** model steps completed so far, 1-based */
  iteration: number;
  maxIterations?: number;
  /** a threshold of 0 turns that detector off */
  repeatThreshold?: number;
  sameToolThreshold?: number;
  errorRepeatThreshold?: number;
  /** false turns cycle detection off */
  cycle?: CycleOptions | false;
  keyMode?: CallKeyMode;
}

export type LoopBreak = ErrorRepeatBreak | RepeatBreak | CycleBreak | SameToolBreak | MaxIterationsBreak;
export type LoopControlDecision = LoopBreak | { kind: 'continue' };

/**
 * Most specific evidence first, so the journal names the real cause: identical failures, identical
 * calls, a repeating sequence, one tool with varying args, and only then the iteration cap (a loop
 * caught at iteration 25 is still reported as the loop).
 */
export const LOOP_CONTROL_ORDER = [
  'error_repeat_break',
  'repeat_break',
  'cycle_break',
  'same_tool_break',
  'max_iterations',
] as const satisfies readonly LoopBreak['kind'][];

/** Call after each step's tool calls have run (outcomes recorded), with the full call history. */
export function evaluateLoopControl(history: readonly CallRecord[], config: LoopControlConfig): LoopControlDecision {
  const on = (threshold: number | undefined) => threshold !== 0;
  const keyMode = config.keyMode ?? 'normalized';
  return (
    (on(config.errorRepeatThreshold) ? detectErrorRepeat(history, config.errorRepeatThreshold, keyMode) : null) ??
    (on(config.repeatThreshold) ? detectRepeat(history, config.repeatThreshold, keyMode) : null) ??
    (config.cycle === false || config.cycle?.repetitions === 0 ? null : detectCycle(history, { keyMode, ...config.cycle })) ??
    (on(config.sameToolThreshold) ? detectSameTool(history, config.sameToolThreshold) : null) ??
    detectMaxIterations(config.iteration, config.maxIterations) ?? { kind: 'continue' }
  );
}
