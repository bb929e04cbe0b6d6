import type { ContentLoopBreak } from './content-loop-detector';
import type { LoopBreak } from './loop-control';
import { LOOP_BREAK_KINDS, type LoopBreakKind, type TerminationReason } from '../../journal/events/loop-vocabulary';

// the termination reasons and break kinds are declared with the rest of the loop's vocabulary
export { LOOP_BREAK_KINDS, TERMINATION_REASONS, type LoopBreakKind, type TerminationReason } from '../../journal/events/loop-vocabulary';

// fails to compile when a detector's kind and the declared break kinds differ
type DetectedKind = LoopBreak['kind'] | ContentLoopBreak['kind'];
const sameKinds: [DetectedKind, LoopBreakKind] extends [LoopBreakKind, DetectedKind] ? true : never = true;
void sameKinds;

/** The loop-control breaks: the model was cut off mid-task, so its work so far is unreported. */
const ABNORMAL_BREAKS: ReadonlySet<TerminationReason> = new Set<LoopBreakKind>(LOOP_BREAK_KINDS);

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
