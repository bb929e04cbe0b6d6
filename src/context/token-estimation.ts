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

const CODE_CHARS = new Set('{}[]();=<>|&!+-*/\\^~`');

/** Share of code characters among all characters; 0 for empty text. */
export function codeCharRatio(text: string): number {
  if (text.length === 0) return 0;
  let code = 0;
  for (let i = 0; i < text.length; i++) if (CODE_CHARS.has(text[i])) code++;
  return code / text.length;
}

/** Tokens per ASCII character for a given code-character ratio. */
export function tokensPerChar(ratio: number): number {
  const t = Math.min(1, Math.max(0, (ratio - CODE_RATIO_LOW) / (CODE_RATIO_HIGH - CODE_RATIO_LOW)));
  return PROSE_TOKENS_PER_CHAR + t * (CODE_TOKENS_PER_CHAR - PROSE_TOKENS_PER_CHAR);
}

export function estimateTokens(text: string): number {
  if (!text) return 0;
  let ascii = 0;
  let nonAscii = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) ascii++;
    else nonAscii++;
  }
  return Math.ceil(ascii * tokensPerChar(codeCharRatio(text)) + nonAscii * NON_ASCII_TOKENS_PER_CHAR);
}

/**
 * Content as the model sees it (pruned results count as the placeholder), thinking (it may be sent
 * back; over-counting only trims earlier), tool name, and each tool call as the JSON the template renders.
 */
export function estimateMessageTokens(m: LlmMessage): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + estimateTokens(modelContent(m)) + estimateTokens(m.thinking ?? '');
  if (m.toolName) tokens += estimateTokens(m.toolName);
  for (const call of m.toolCalls ?? []) {
    tokens += estimateTokens(JSON.stringify({ name: call.name, arguments: call.arguments }));
  }
  return tokens;
}

export function estimateMessagesTokens(messages: readonly LlmMessage[]): number {
  return messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0);
}
