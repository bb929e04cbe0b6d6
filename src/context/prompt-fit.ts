/** How far the reported count may fall below our estimate before we call it truncation. */
export const PROMPT_FIT_MARGIN = 0.25;

export interface PromptFitOverflow {
  kind: 'context_overflow';
  reason: 'prompt_exceeds_num_ctx' | 'estimate_mismatch';
  estimated: number;
  /** prompt_eval_count; null when checked before sending */
  reported: number | null;
  numCtx: number;
}

/**
 * Ollama silently drops the oldest part of a prompt longer than num_ctx and then reports
 * prompt_eval_count after the cut, so usage-based checks never see the overflow. We flag it when
 * our own estimate exceeds num_ctx, or when the prompt was near num_ctx (estimate within the margin
 * of it) and the report came back more than the margin below the estimate: something was dropped.
 * A low report for a prompt far from num_ctx is just a pessimistic estimate.
 */
export function checkPromptFit(input: {
  estimatedPromptTokens: number;
  promptEvalCount?: number | null;
  numCtx: number;
  margin?: number;
}): PromptFitOverflow | null {
  const { estimatedPromptTokens: estimated, numCtx, margin = PROMPT_FIT_MARGIN } = input;
  const reported = input.promptEvalCount ?? null;
  if (estimated > numCtx) return { kind: 'context_overflow', reason: 'prompt_exceeds_num_ctx', estimated, reported, numCtx };
  if (reported !== null && estimated >= numCtx * (1 - margin) && reported < estimated * (1 - margin)) {
    return { kind: 'context_overflow', reason: 'estimate_mismatch', estimated, reported, numCtx };
  }
  return null;
}
