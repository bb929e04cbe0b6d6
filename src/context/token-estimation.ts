import type { LlmMessage } from '../provider/llm-types';
import { modelContent } from './transcript';

// Content-aware estimate (spec invariant 11): prose ~4 chars/token, code ~3 chars/token.
export const PROSE_TOKENS_PER_CHAR = 0.25;
export const CODE_TOKENS_PER_CHAR = 1 / 3;
/** v1 switched at a code-character share of 0.08; we blend linearly across [0.05, 0.12] (HEAD's band,
 * which contains 0.08) so one extra brace cannot change an estimate by a third. */
export const CODE_RATIO_LOW = 0.05;
export const CODE_RATIO_HIGH = 0.12;
/** Non-ASCII code points (CJK, emoji) are often one or more tokens each; 0.25 would badly
 * under-count them, and under-counting is what lets Ollama truncate silently. */
export const NON_ASCII_TOKENS_PER_CHAR = 1;
/** Role markers and template tokens around each chat message. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Code characters by ASCII code (a table: estimation runs over every message on every iteration). */
const IS_CODE = new Uint8Array(128);
for (const ch of '{}[]();=<>|&!+-*/\\^~`') IS_CODE[ch.charCodeAt(0)] = 1;

/** Share of code characters among all characters; 0 for empty text. */
export function codeCharRatio(text: string): number {
  if (text.length === 0) return 0;
  let code = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) code += IS_CODE[c];
  }
  return code / text.length;
}

/** Tokens per ASCII character for a given code-character ratio. */
export function tokensPerChar(ratio: number): number {
  const t = Math.min(1, Math.max(0, (ratio - CODE_RATIO_LOW) / (CODE_RATIO_HIGH - CODE_RATIO_LOW)));
  return PROSE_TOKENS_PER_CHAR + t * (CODE_TOKENS_PER_CHAR - PROSE_TOKENS_PER_CHAR);
}

/**
 * The token estimates the loop profiles use: corvid's content-aware one (direct-process.spec.md
 * invariant 11, Loupe's default), chars / 4 (opencode, dexto, the MCP agent), and gemini-cli's
 * (ASCII 1/4 token per char, other characters 1.3, text over 100k chars length / 4), and corvid's own
 * (the corvid profile): Loupe's content_aware departs from it in its blend and its non-ASCII rate.
 */
export const TOKEN_ESTIMATORS = ['content_aware', 'chars_per_4', 'gemini', 'corvid'] as const;
export type TokenEstimatorName = (typeof TOKEN_ESTIMATORS)[number];

/** context-management-plan.md "Gemini-CLI Approach": "ASCII ~0.25, non-ASCII ~1.3 tokens/char" (the survey's
 * newer code reading, loop-control-prior-art.md §2, has 1.5; the profile follows its own spec). */
export const GEMINI_NON_ASCII_TOKENS_PER_CHAR = 1.3;
export const GEMINI_ASCII_TOKENS_PER_CHAR = 0.25;
export const GEMINI_LONG_TEXT_CHARS = 100_000;

export function estimateTokens(text: string, estimator: TokenEstimatorName = 'content_aware'): number {
  if (!text) return 0;
  if (estimator === 'chars_per_4') return Math.round(text.length / 4);
  if (estimator === 'gemini') return geminiEstimate(text);
  if (estimator === 'corvid') return corvidEstimate(text);
  // one pass: ASCII and code characters by UTF-16 unit, everything else by code point
  let ascii = 0;
  let code = 0;
  let nonAscii = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      ascii++;
      code += IS_CODE[c];
      continue;
    }
    nonAscii++;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return Math.ceil(ascii * tokensPerChar(code / n) + nonAscii * NON_ASCII_TOKENS_PER_CHAR);
}

/**
 * Content as the model sees it (pruned results count as the placeholder), thinking (it may be sent
 * back; over-counting only trims earlier), tool name, and each tool call as the JSON the template renders.
 */
// Messages are immutable values (the loop replaces them, never edits them), so each one's estimate is
// computed once per estimator: the whole context is estimated several times per iteration.
const ESTIMATES: Record<TokenEstimatorName, WeakMap<LlmMessage, number>> = {
  content_aware: new WeakMap(),
  chars_per_4: new WeakMap(),
  gemini: new WeakMap(),
  corvid: new WeakMap(),
};

const CONTENT_ESTIMATES: Record<TokenEstimatorName, WeakMap<object, number>> = {
  content_aware: new WeakMap(),
  chars_per_4: new WeakMap(),
  gemini: new WeakMap(),
  corvid: new WeakMap(),
};

/** A message's own content estimate (what pruning weighs), once per message and estimator. */
export function estimateContentTokens(m: { content: string }, estimator: TokenEstimatorName = 'content_aware'): number {
  const cache = CONTENT_ESTIMATES[estimator];
  let tokens = cache.get(m);
  if (tokens === undefined) cache.set(m, (tokens = estimateTokens(m.content, estimator)));
  return tokens;
}

export function estimateMessageTokens(m: LlmMessage, estimator: TokenEstimatorName = 'content_aware'): number {
  const cache = ESTIMATES[estimator];
  const known = cache.get(m);
  if (known !== undefined) return known;
  let tokens = MESSAGE_OVERHEAD_TOKENS + estimateTokens(modelContent(m), estimator) + estimateTokens(m.thinking ?? '', estimator);
  if (m.toolName) tokens += estimateTokens(m.toolName, estimator);
  for (const call of m.toolCalls ?? []) {
    tokens += estimateTokens(JSON.stringify({ name: call.name, arguments: call.arguments }), estimator);
  }
  cache.set(m, tokens);
  return tokens;
}

export function estimateMessagesTokens(messages: readonly LlmMessage[], estimator: TokenEstimatorName = 'content_aware'): number {
  return messages.reduce((sum, m) => sum + estimateMessageTokens(m, estimator), 0);
}

function geminiEstimate(text: string): number {
  if (text.length > GEMINI_LONG_TEXT_CHARS) return Math.round(text.length / 4);
  let ascii = 0;
  let other = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) ascii++;
    else other++;
  }
  return Math.round(ascii * GEMINI_ASCII_TOKENS_PER_CHAR + other * GEMINI_NON_ASCII_TOKENS_PER_CHAR);
}

/** corvid's v1 switch (direct-process.spec.md invariant 11, corvid-agent notes §2.3): a code-character
 * share above 0.08 is 3 chars/token, otherwise 4; every UTF-16 unit counts as a character. */
export const CORVID_CODE_RATIO = 0.08;

function corvidEstimate(text: string): number {
  return Math.ceil(text.length / (codeCharRatio(text) > CORVID_CODE_RATIO ? 3 : 4));
}
