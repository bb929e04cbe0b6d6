import { z } from 'zod';
import { defineEvent } from './define-event';

const usage = z.object({ inputTokens: z.number(), outputTokens: z.number(), wallMs: z.number() });

export const CONTEXT_EVENTS = {
  trim: defineEvent("Older messages left the model's view (the transcript keeps them), with one-line summaries of dropped tool results.", {
    reason: z.enum(['message_count', 'token_budget']),
    cause: z.string().optional(),
    droppedIndexes: z.array(z.number()),
    summaries: z.array(z.string()),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
    budgetTokens: z.number(),
    messagesAfter: z.number(),
  }),
  prune: defineEvent('Old tool outputs were marked compacted (kept in Postgres, replaced by a placeholder for the model).', {
    kind: z.literal('prune'),
    indexes: z.array(z.number()),
    tokensFreed: z.number(),
    protectTokens: z.number(),
    minimumTokens: z.number(),
  }),
  compaction: defineEvent('The older context was summarized by the model (ok), or the summary was rejected and the loop trimmed instead.', {
    ok: z.boolean(),
    cause: z.string(),
    reason: z.string().optional(),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
    summaryChars: z.number().optional(),
    summaryTokens: z.number().optional(),
    summaryIndex: z.number().optional(),
    replacedIndexes: z.array(z.number()).optional(),
    keepFromIndex: z.number().optional(),
    /** a rejected summary: what tokensBefore is (the replaced part's estimate; gemini-cli: the last prompt's API count, or the context's estimate without one) */
    basis: z.enum(['replaced_estimate', 'api', 'context_estimate']).optional(),
    usage,
  }),
  history_cleared: defineEvent(
    "The history was cleared from the model's view (the MCP agent's overflow recovery): only the system prompt and the task remain; the transcript keeps everything.",
    {
      cause: z.string(),
      droppedIndexes: z.array(z.number()),
      tokensBefore: z.number(),
      tokensAfter: z.number(),
      messagesAfter: z.number(),
    },
  ),
  context_overflow: defineEvent(
    "The context did not fit: over the usable window or the profile's share of it, over num_ctx, silently truncated by Ollama, about to overflow, or rejected as too long.",
    {
      kind: z.literal('context_overflow').optional(),
      reason: z.enum([
        'usable_window_exceeded',
        'context_ratio_exceeded',
        'prompt_exceeds_num_ctx',
        'estimate_mismatch',
        'will_overflow',
        'provider_rejected',
      ]),
      /** what the profile did about it */
      action: z.enum(['compact', 'trim', 'clear_history', 'refuse', 'record', 'fail']).optional(),
      ratio: z.number().optional(),
      phase: z.enum(['before_request', 'before_send', 'after_response', 'provider']),
      purpose: z.enum(['step', 'epilogue', 'compaction', 'grace_turn']).optional(),
      usedTokens: z.number().optional(),
      usableTokens: z.number().optional(),
      reservedOutputTokens: z.number().optional(),
      estimated: z.number().optional(),
      reported: z.number().nullable().optional(),
      numCtx: z.number().optional(),
      /** where numCtx (the window judged against) came from: the runner's loaded context (/api/ps) or the requested num_ctx */
      contextSource: z.enum(['loaded', 'requested', 'unknown']).optional(),
      /** prompt_eval_cached_count of the reply, when the server sent it */
      cached: z.number().nullable().optional(),
      message: z.string().optional(),
    },
  ),
};
