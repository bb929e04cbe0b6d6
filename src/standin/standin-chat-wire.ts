// /api/chat and /api/generate response objects in Go's field order with its omitempty rules:
// message.role and message.content always present; thinking, tool_calls, done_reason and zero
// metrics left out; function.index always present.
import { randomInt } from 'node:crypto';

import { sortKeysDeep } from './standin-go-json';

export interface WireToolCall {
  id?: string;
  function: { index: number; name: string; arguments: Record<string, unknown> };
}

/** One streamed delta (or the aggregate of all of them). */
export interface ReplyPiece {
  content?: string;
  thinking?: string;
  toolCalls?: WireToolCall[];
}

/** The six final-chunk metrics: durations in integer nanoseconds. */
export interface ChatMetrics {
  totalDurationNs: number;
  loadDurationNs: number;
  /** 0 = left out (omitempty; early builds on a fully cached prompt) */
  promptEvalCount: number;
  /** prompt_eval_cached_count (Ollama 0.34+): `*int` with omitempty, so present whenever set, 0 included */
  promptEvalCachedCount?: number;
  promptEvalDurationNs: number;
  evalCount: number;
  evalDurationNs: number;
}

export interface RemoteInfo {
  remoteModel: string;
  remoteHost: string;
}

export interface ChunkInput {
  model: string;
  createdAt: string;
  piece: ReplyPiece;
  done: boolean;
  doneReason?: string;
  metrics?: ChatMetrics;
  remote?: RemoteInfo;
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** "call_" + 8 random [a-z0-9], as Ollama's toolCallId(). */
export function newToolCallId(): string {
  let s = 'call_';
  for (let i = 0; i < 8; i++) s += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return s;
}

function head(input: ChunkInput): Record<string, unknown> {
  const out: Record<string, unknown> = { model: input.model };
  if (input.remote) {
    out.remote_model = input.remote.remoteModel;
    out.remote_host = input.remote.remoteHost;
  }
  out.created_at = input.createdAt;
  return out;
}

function appendMetrics(out: Record<string, unknown>, m: ChatMetrics | undefined): void {
  if (!m) return;
  const put = (key: string, v: number): void => {
    const n = Math.round(v);
    if (n !== 0) out[key] = n;
  };
  put('total_duration', m.totalDurationNs);
  put('load_duration', m.loadDurationNs);
  put('prompt_eval_count', m.promptEvalCount);
  if (m.promptEvalCachedCount !== undefined) out.prompt_eval_cached_count = Math.round(m.promptEvalCachedCount);
  put('prompt_eval_duration', m.promptEvalDurationNs);
  put('eval_count', m.evalCount);
  put('eval_duration', m.evalDurationNs);
}

function wireToolCalls(calls: WireToolCall[]): WireToolCall[] {
  return calls.map((c) => ({
    ...(c.id ? { id: c.id } : {}),
    function: { index: c.function.index, name: c.function.name, arguments: sortKeysDeep(c.function.arguments ?? {}) },
  }));
}

/** api.ChatResponse. */
export function chatChunk(input: ChunkInput): Record<string, unknown> {
  const out = head(input);
  const message: Record<string, unknown> = { role: 'assistant', content: input.piece.content ?? '' };
  if (input.piece.thinking) message.thinking = input.piece.thinking;
  if (input.piece.toolCalls?.length) message.tool_calls = wireToolCalls(input.piece.toolCalls);
  out.message = message;
  out.done = input.done;
  if (input.doneReason) out.done_reason = input.doneReason;
  appendMetrics(out, input.metrics);
  return out;
}

/** api.GenerateResponse (context, the deprecated token array, is left out). */
export function generateChunk(input: ChunkInput): Record<string, unknown> {
  const out = head(input);
  out.response = input.piece.content ?? '';
  if (input.piece.thinking) out.thinking = input.piece.thinking;
  out.done = input.done;
  if (input.doneReason) out.done_reason = input.doneReason;
  appendMetrics(out, input.metrics);
  if (input.piece.toolCalls?.length) out.tool_calls = wireToolCalls(input.piece.toolCalls);
  return out;
}

/** Joins streamed pieces the way Ollama's non-streaming path does. */
export function aggregatePieces(pieces: ReplyPiece[]): ReplyPiece {
  let content = '';
  let thinking = '';
  const toolCalls: WireToolCall[] = [];
  for (const p of pieces) {
    content += p.content ?? '';
    thinking += p.thinking ?? '';
    if (p.toolCalls) toolCalls.push(...p.toolCalls);
  }
  return { content, thinking: thinking || undefined, toolCalls: toolCalls.length ? toolCalls : undefined };
}
