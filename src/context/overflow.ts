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

export interface ContextRatioOverflow {
  kind: 'context_overflow';
  reason: 'context_ratio_exceeded';
  usedTokens: number;
  numCtx: number;
  ratio: number;
}

/**
 * The same reactive check against a share of the window: opencode compacts when the last step's
 * input tokens exceed 90% of it (stream-processor-deep-dive.md "Finish"), gemini-cli compresses
 * when the last prompt reaches 50% (loop-control-prior-art.md §2).
 */
export function isContextRatioExceeded(input: { promptTokens: number; numCtx: number; ratio: number }): ContextRatioOverflow | null {
  const { promptTokens, numCtx, ratio } = input;
  if (promptTokens < numCtx * ratio) return null;
  return { kind: 'context_overflow', reason: 'context_ratio_exceeded', usedTokens: promptTokens, numCtx, ratio };
}

export interface WillOverflow {
  kind: 'context_overflow';
  reason: 'will_overflow';
  /** estimated tokens of what is about to be sent */
  estimated: number;
  numCtx: number;
  /** the prompt_eval_count of the last call, or 0 before the first */
  lastPromptTokens: number;
}

/**
 * gemini-cli's ContextWindowWillOverflow (loop-control-prior-art.md §2): the messages added since the
 * last call, estimated, exceed what the window has left after the last prompt; the request is not sent.
 */
export function willOverflow(input: { newTokens: number; lastPromptTokens: number; numCtx: number }): WillOverflow | null {
  const { newTokens, lastPromptTokens, numCtx } = input;
  if (newTokens <= numCtx - lastPromptTokens) return null;
  return { kind: 'context_overflow', reason: 'will_overflow', estimated: newTokens, numCtx, lastPromptTokens };
}

/** Every context-overflow decision the loop may journal. */
export type ContextOverflowDecision = UsableWindowOverflow | ContextRatioOverflow | WillOverflow | PromptFitOverflow;
