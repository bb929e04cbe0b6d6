// The outcomes an iteration ends with (iterations.outcome, iteration_finished.outcome). Pure.
import type { LlmFinishReason, LlmToolCall } from '../../provider/llm-types';

export const ITERATION_OUTCOMES = [
  'tool_calls',
  'final_answer',
  'nudge',
  'mid_chain_nudge',
  'nudges_exhausted',
  'loop_warning',
  'permission_rejected',
  'repeat_break',
  'same_tool_break',
  'cycle_break',
  'error_repeat_break',
  'content_loop_break',
  'max_iterations',
  'epilogue',
  'epilogue_failed',
  /** gemini-cli's grace turn at the cap: answered in time (the session completes), or not */
  'grace_turn',
  'grace_turn_failed',
  /** an iteration cut short by a kill or an error */
  'aborted',
  'failed',
  /** done_reason "length" with no content and no tool calls: the budget went on reasoning or nothing (a model behaviour, not a Loupe error) */
  'length_empty',
] as const;
export type IterationOutcome = (typeof ITERATION_OUTCOMES)[number];

/** num_predict ran out before the model wrote anything: a thinking model that spent it all reasoning. */
export function isLengthEmpty(reply: { finishReason: LlmFinishReason; content: string; toolCalls: readonly LlmToolCall[] }): boolean {
  return reply.finishReason === 'length' && reply.content.trim() === '' && reply.toolCalls.length === 0;
}

/**
 * The outcome recorded for a reply the loop reacted to with `reaction` (nudge, final answer…): a
 * length-with-empty-content reply is recorded as length_empty whatever the profile did about it.
 */
export function replyOutcome(
  reply: { finishReason: LlmFinishReason; content: string; toolCalls: readonly LlmToolCall[] },
  reaction: IterationOutcome,
): IterationOutcome {
  return isLengthEmpty(reply) ? 'length_empty' : reaction;
}
