import type { ContentLoopBreak } from './content-loop-detector';
import type { LoopBreak } from './loop-control';

/** Every way loop control can end a session. */
export type LoopBreakKind = LoopBreak['kind'] | ContentLoopBreak['kind'];

export const TERMINATION_REASONS = [
  'completed',
  'max_iterations',
  'repeat_break',
  'same_tool_break',
  'cycle_break',
  'error_repeat_break',
  /** the model's text repeated itself (gemini-cli's content loop detector) */
  'content_loop_break',
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
  /** idle past LOUPE_SESSION_IDLE_TIMEOUT_MS: pruned by the janitor, its history kept (mcp-agent "Expired Session") */
  'expired',
] as const;

export type TerminationReason = (typeof TERMINATION_REASONS)[number];

/** The loop-control breaks: the model was cut off mid-task, so its work so far is unreported. */
const ABNORMAL_BREAKS: ReadonlySet<TerminationReason> = new Set<LoopBreakKind>([
  'repeat_break',
  'same_tool_break',
  'cycle_break',
  'error_repeat_break',
  'content_loop_break',
  'max_iterations',
]);

/**
 * Spec invariant 9, extended to the breaks Loupe adds (cycle, error repeat). Not for aborts, provider
 * errors or overflow: there the extra inference is unwanted or cannot succeed.
 */
export function needsSummaryEpilogue(reason: TerminationReason, epilogue: 'summary' | 'none' = 'summary'): boolean {
  return epilogue === 'summary' && ABNORMAL_BREAKS.has(reason);
}

/** Whether the reason is a loop-control break (whatever the profile does after it). */
export function isLoopBreak(reason: string): reason is LoopBreakKind {
  return ABNORMAL_BREAKS.has(reason as TerminationReason);
}

const BREAK_EXPLANATIONS: Record<LoopBreakKind, string> = {
  repeat_break: 'you repeated the same tool call several times in a row',
  same_tool_break: 'you called the same tool many times in a row',
  cycle_break: 'you kept repeating the same sequence of tool calls',
  error_repeat_break: 'the same tool call kept failing with the same error',
  content_loop_break: 'your reply kept repeating the same text',
  max_iterations: 'the maximum number of steps was reached',
};

/** The tools-disabled epilogue request (message kind 'epilogue_request'); null when none is due. */
export function buildEpilogueRequest(reason: TerminationReason): { toolsEnabled: false; content: string } | null {
  if (!needsSummaryEpilogue(reason)) return null;
  const why = BREAK_EXPLANATIONS[reason as LoopBreakKind];
  return {
    toolsEnabled: false,
    content:
      `The session is stopping because ${why}. Tools are now disabled. Summarize what you accomplished, ` +
      'what remains unfinished, and what you would do next. Respond with text only.',
  };
}
