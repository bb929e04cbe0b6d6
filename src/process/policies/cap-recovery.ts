// gemini-cli's recovery at the turn limit (context-management-plan.md "Gemini-CLI Approach": "60s
// grace period for recovery turns"; gemini-cli agents/local-executor.ts executeFinalWarningTurn):
// when the cap ends the loop, the model gets one last turn, under its own time limit, to finish. It
// is told why and that it must answer now without tools; an answer in time ends the session as
// completed, anything else (no answer in time, only tool calls, nothing) leaves it at the cap.
// Pure: the loop (../grace-turn.ts) carries it out.
import type { LlmToolCall } from '../../provider/llm-types';
import type { LoopSettings } from './loop-settings';
import type { TerminationReason } from './termination';

/**
 * gemini-cli's final warning for MAX_TURNS, with its `complete_task` call put as Loupe's way to
 * finish: a reply with text and no tool calls (no tools are sent in the grace turn).
 */
export const GRACE_TURN_MESSAGE =
  'You have exceeded the maximum number of turns. You have one final chance to complete the task with a short grace period. ' +
  'You MUST give your final answer now, as text, with your best answer and an explanation that your work was interrupted. ' +
  'Do not call any tools.';

export interface GraceTurnPlan {
  /** the grace period: the model call is cancelled when it runs out */
  timeoutMs: number;
  message: string;
}

/** The grace turn due after the loop ended with `reason`, or null (another reason, or a profile without one). */
export function planGraceTurn(
  reason: TerminationReason,
  settings: Pick<LoopSettings, 'capRecovery' | 'graceTurnMs'>,
): GraceTurnPlan | null {
  // gemini-cli recovers from MAX_TURNS and TIMEOUT, never from a cancel or an error; Loupe has no session time limit
  if (reason !== 'max_iterations' || settings.capRecovery !== 'grace_turn' || !(settings.graceTurnMs > 0)) return null;
  return { timeoutMs: settings.graceTurnMs, message: GRACE_TURN_MESSAGE };
}

export type GraceTurnReply =
  { kind: 'reply'; content: string; toolCalls: readonly LlmToolCall[] } | { kind: 'timed_out' } | { kind: 'failed'; message: string };

export type GraceTurnVerdict =
  { recovered: true; finalAnswer: string } | { recovered: false; why: 'timed_out' | 'called_tools' | 'empty' | 'failed' };

/** gemini-cli: only the finishing call within the grace period counts ("Any other outcome … is a failure"). */
export function judgeGraceTurn(reply: GraceTurnReply): GraceTurnVerdict {
  if (reply.kind === 'timed_out') return { recovered: false, why: 'timed_out' };
  if (reply.kind === 'failed') return { recovered: false, why: 'failed' };
  if (reply.toolCalls.length) return { recovered: false, why: 'called_tools' };
  if (!reply.content.trim()) return { recovered: false, why: 'empty' };
  return { recovered: true, finalAnswer: reply.content };
}
