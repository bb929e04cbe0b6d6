import type { PromptFitOverflow } from './prompt-fit';

/** corvid's local num_predict; at most a quarter of small windows. */
export const DEFAULT_RESERVED_OUTPUT_TOKENS = 2_048;

export interface UsableWindowOverflow {
  kind: 'context_overflow';
  reason: 'usable_window_exceeded';
  usedTokens: number;
  usableTokens: number;
  numCtx: number;
  reservedOutputTokens: number;
}

export function defaultReservedOutputTokens(numCtx: number): number {
  return Math.min(DEFAULT_RESERVED_OUTPUT_TOKENS, Math.floor(numCtx / 4));
}

/**
 * Reactive check on the actual counts of the last inference (its prompt plus its output, which the
 * next prompt will contain) against the window minus room for the next answer. Ollama reports
 * prompt_eval_count after silently truncating, so pair this with checkPromptFit.
 */
export function isContextOverflow(input: {
  promptTokens: number;
  outputTokens?: number;
  numCtx: number;
  reservedOutputTokens?: number;
}): UsableWindowOverflow | null {
  const { promptTokens, outputTokens = 0, numCtx } = input;
  const reservedOutputTokens = input.reservedOutputTokens ?? defaultReservedOutputTokens(numCtx);
  const usableTokens = numCtx - reservedOutputTokens;
  const usedTokens = promptTokens + outputTokens;
  if (usedTokens < usableTokens) return null;
  return {
    kind: 'context_overflow',
    reason: 'usable_window_exceeded',
    usedTokens,
    usableTokens,
    numCtx,
    reservedOutputTokens,
  };
}

/** Every context-overflow decision the loop may journal. */
export type ContextOverflowDecision = UsableWindowOverflow | PromptFitOverflow;
