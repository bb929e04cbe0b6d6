/** How far the reported count may fall below our estimate before we call it truncation. */
export const PROMPT_FIT_MARGIN = 0.25;

export interface PromptFitOverflow {
  kind: 'context_overflow';
  reason: 'prompt_exceeds_num_ctx' | 'estimate_mismatch';
  estimated: number;
  /** the whole prompt as the server counted it (read per its version); null before sending or when it cannot be told */
  reported: number | null;
  /** the window judged against: the runner's loaded context when known, else the requested num_ctx */
  numCtx: number;
}

/**
 * Ollama silently drops the oldest part of a prompt longer than num_ctx and then reports
 * prompt_eval_count after the cut, so usage-based checks never see the overflow. We flag it when
 * our own estimate exceeds num_ctx, or when the prompt was near num_ctx (estimate within the margin
 * of it) and the report came back more than the margin below the estimate: something was dropped.
 * A low report for a prompt far from num_ctx is just a pessimistic estimate. A report that cannot be
 * told (null: a cache-excluding count, or none at all) is never judged: a cached turn is reported small.
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
