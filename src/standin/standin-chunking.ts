// Text → streamed deltas, and deterministic token counts. A "token" is a whitespace-separated
// word: easy to predict in tests, and the same rule paces tokensPerSecond.
import type { StandinToolCall } from './standin-script';

/**
 * Splits text into one delta per word, each carrying the whitespace before it, so the deltas
 * join back to exactly the input. Trailing whitespace rides on the last delta.
 */
export function splitIntoDeltas(text: string): string[] {
  if (text === '') return [];
  const pieces = text.match(/\s*\S+/g);
  if (!pieces) return [text];
  const joinedLength = pieces.reduce((n, p) => n + p.length, 0);
  if (joinedLength < text.length) pieces[pieces.length - 1] += text.slice(joinedLength);
  return pieces;
}

export function countWords(text: string | undefined): number {
  if (!text) return 0;
  const words = text.match(/\S+/g);
  return words ? words.length : 0;
}

/** Tokens a tool call "costs": its name and its arguments' JSON, counted as words. */
export function toolCallWords(call: { name: string; arguments: unknown }): number {
  return countWords(`${call.name} ${JSON.stringify(call.arguments ?? {})}`);
}

interface PromptMessage {
  content?: unknown;
  thinking?: unknown;
  tool_calls?: unknown;
}

/** prompt_eval_count: words of every message's content, thinking and tool calls; at least 1. */
export function promptTokenCount(messages: unknown): number {
  if (!Array.isArray(messages)) return 1;
  let total = 0;
  for (const raw of messages as PromptMessage[]) {
    if (!raw || typeof raw !== 'object') continue;
    if (typeof raw.content === 'string') total += countWords(raw.content);
    if (typeof raw.thinking === 'string') total += countWords(raw.thinking);
    if (Array.isArray(raw.tool_calls)) {
      for (const tc of raw.tool_calls as { function?: { name?: unknown; arguments?: unknown } }[]) {
        const fn = tc?.function;
        if (fn && typeof fn.name === 'string') total += toolCallWords({ name: fn.name, arguments: fn.arguments });
      }
    }
  }
  return Math.max(1, total);
}

/** eval_count: words of what the reply actually carries; at least 1 (the end-of-turn token). */
export function evalTokenCount(reply: { thinking?: string; content?: string; toolCalls?: StandinToolCall[] }): number {
  let total = countWords(reply.thinking) + countWords(reply.content);
  for (const call of reply.toolCalls ?? []) total += toolCallWords(call);
  return Math.max(1, total);
}
