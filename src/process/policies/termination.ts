import type { LoopBreak } from './loop-control';

export const TERMINATION_REASONS = [
  'completed',
  'max_iterations',
  'repeat_break',
  'same_tool_break',
  'cycle_break',
  'error_repeat_break',
  'nudges_exhausted',
  'aborted',
  'provider_error',
  'context_overflow',
  /** the inference slot was not granted in time (corvid's slot_timeout) */
  'slot_timeout',
  /** the Loupe process running the session died (found and closed by the next start) */
  'interrupted',
  /** a tool call was rejected and the session stops on rejection (stream-processor: blocked → stop) */
  'permission_rejected',
] as const;

export type TerminationReason = (typeof TERMINATION_REASONS)[number];

/** The loop-control breaks: the model was cut off mid-task, so its work so far is unreported. */
const ABNORMAL_BREAKS: ReadonlySet<TerminationReason> = new Set<LoopBreak['kind']>([
  'repeat_break',
  'same_tool_break',
  'cycle_break',
  'error_repeat_break',
  'max_iterations',
]);

/**
 * Spec invariant 9, extended to the breaks Loupe adds (cycle, error repeat). Not for aborts, provider
 * errors or overflow: there the extra inference is unwanted or cannot succeed.
 */
export function needsSummaryEpilogue(reason: TerminationReason): boolean {
  return ABNORMAL_BREAKS.has(reason);
}

const BREAK_EXPLANATIONS: Record<LoopBreak['kind'], string> = {
  repeat_break: 'you repeated the same tool call several times in a row',
  same_tool_break: 'you called the same tool many times in a row',
  cycle_break: 'you kept repeating the same sequence of tool calls',
  error_repeat_break: 'the same tool call kept failing with the same error',
  max_iterations: 'the maximum number of steps was reached',
};

/** The tools-disabled epilogue request (message kind 'epilogue_request'); null when none is due. */
export function buildEpilogueRequest(reason: TerminationReason): { toolsEnabled: false; content: string } | null {
  if (!needsSummaryEpilogue(reason)) return null;
  const why = BREAK_EXPLANATIONS[reason as LoopBreak['kind']];
  return {
    toolsEnabled: false,
    content:
      `The session is stopping because ${why}. Tools are now disabled. Summarize what you accomplished, ` +
      'what remains unfinished, and what you would do next. Respond with text only.',
  };
}
