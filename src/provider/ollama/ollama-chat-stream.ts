// One streamed /api/chat call with its three time budgets: first byte (headers come only with the
// first chunk, so this covers model load and server queueing), idle (no chunk for too long) and the
// whole request. A timeout aborts with a diagnostic ProviderError as the reason, so the classifier
// tells it from the caller's own abort. Leaving early always calls iterator.abort().
import type { AbortableAsyncIterator, ChatRequest, ChatResponse } from 'ollama';
import { randomBytes } from 'node:crypto';
import type { LlmToolCall } from '../llm-types';
import { classifyProviderError } from './error-classifier';
import { toProviderError, type ProviderError } from '../provider-errors';
import { timeoutError } from './timeouts';
import { createRequestClient, type ResponseCapture } from './ollama-transport';

export interface StreamBudgets {
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface RawChatResult {
  model: string;
  content: string;
  thinking: string;
  toolCalls: LlmToolCall[];
  doneReason: string;
  /** prompt_eval_count, 0 when absent (the usage figure as recorded) */
  promptEvalCount: number;
  /** prompt_eval_count as the server sent it: undefined when absent (omitempty, or fully cached on early builds) */
  promptEvalCountReported?: number;
  /** prompt_eval_cached_count (newer servers): the cached part of the prompt */
  promptCachedCount?: number;
  evalCount: number;
  totalNs?: number;
  loadNs?: number;
  promptEvalNs?: number;
  evalNs?: number;
  wallMs: number;
  firstChunkMs?: number;
  chunks: number;
  malformedLines: number;
}

export function newCallId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return `call_${[...randomBytes(8)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

export async function streamChat(
  host: string,
  request: ChatRequest,
  budgets: StreamBudgets,
  opts: { signal?: AbortSignal; onDelta?: (d: { content?: string; thinking?: string }) => void; onMalformed?: (line: string) => void },
): Promise<RawChatResult> {
  const controller = new AbortController();
  const capture: ResponseCapture = { malformedLines: 0 };
  const started = performance.now();
  const forward = () => controller.abort(opts.signal?.reason ?? new DOMException('This operation was aborted', 'AbortError'));
  if (opts.signal?.aborted) forward();
  opts.signal?.addEventListener('abort', forward, { once: true });
  const timers: NodeJS.Timeout[] = [];
  const after = (ms: number, fire: () => ProviderError) => {
    const t = setTimeout(() => controller.abort(fire()), ms);
    timers.push(t);
    return t;
  };
  after(budgets.requestTimeoutMs, () => timeoutError('timeout_request', budgets.requestTimeoutMs, { model: request.model }));
  const firstByte = after(budgets.firstByteTimeoutMs, () =>
    timeoutError('timeout_first_byte', budgets.firstByteTimeoutMs, { model: request.model }),
  );
  let idle: NodeJS.Timeout | undefined;
  const out: RawChatResult = {
    model: request.model,
    content: '',
    thinking: '',
    toolCalls: [],
    doneReason: '',
    promptEvalCount: 0,
    evalCount: 0,
    wallMs: 0,
    chunks: 0,
    malformedLines: 0,
  };
  // re-armed on every chunk: refresh() restarts the same timer instead of a new one per chunk
  const armIdle = () => {
    if (idle) idle.refresh();
    else
      idle = setTimeout(
        () => controller.abort(timeoutError('timeout_idle', budgets.idleTimeoutMs, { model: request.model, chunks: out.chunks })),
        budgets.idleTimeoutMs,
      );
  };
  // an exception from the caller's own callbacks is the caller's: it must leave unchanged, never
  // be read as a broken stream (which would be retried, sending the request again)
  let callbackError: { error: unknown } | undefined;
  const guard =
    <A extends unknown[]>(callback: ((...args: A) => void) | undefined) =>
    (...args: A): void => {
      try {
        callback?.(...args);
      } catch (error) {
        callbackError = { error };
        throw error;
      }
    };
  const onDelta = guard(opts.onDelta);
  const client = createRequestClient(host, controller.signal, capture, guard(opts.onMalformed));
  let iterator: AbortableAsyncIterator<ChatResponse> | undefined;
  let finished = false;
  try {
    iterator = await client.chat({ ...request, stream: true });
    clearTimeout(firstByte);
    armIdle();
    for await (const chunk of iterator) {
      armIdle();
      out.chunks++;
      if (out.firstChunkMs === undefined) out.firstChunkMs = performance.now() - started;
      const m = chunk.message;
      if (m?.content) {
        out.content += m.content;
        onDelta({ content: m.content });
      }
      if (m?.thinking) {
        out.thinking += m.thinking;
        onDelta({ thinking: m.thinking });
      }
      for (const tc of (m?.tool_calls ?? []) as Array<{
        id?: string;
        function: { name: string; arguments: Record<string, unknown> | string };
      }>) {
        const args = typeof tc.function.arguments === 'string' ? safeJson(tc.function.arguments) : (tc.function.arguments ?? {});
        out.toolCalls.push({ id: tc.id ?? newCallId(), name: tc.function.name, arguments: args });
      }
      if (chunk.done) {
        out.model = chunk.model || request.model;
        out.doneReason = chunk.done_reason ?? '';
        out.promptEvalCount = chunk.prompt_eval_count ?? 0;
        out.promptEvalCountReported = chunk.prompt_eval_count ?? undefined;
        const cached = (chunk as ChatResponse & { prompt_eval_cached_count?: number }).prompt_eval_cached_count;
        if (typeof cached === 'number') out.promptCachedCount = cached;
        out.evalCount = chunk.eval_count ?? 0;
        out.totalNs = chunk.total_duration;
        out.loadNs = chunk.load_duration;
        out.promptEvalNs = chunk.prompt_eval_duration;
        out.evalNs = chunk.eval_duration;
      }
    }
    finished = true;
    out.wallMs = performance.now() - started;
    out.malformedLines = capture.malformedLines;
    return out;
  } catch (e) {
    if (callbackError) throw callbackError.error;
    const info = classifyProviderError(e, {
      abortReason: controller.signal.aborted ? controller.signal.reason : undefined,
      midStream: capture.headersAt !== undefined && capture.status === 200,
      retryAfter: capture.retryAfter,
    });
    throw toProviderError(info, e);
  } finally {
    for (const t of timers) clearTimeout(t);
    clearTimeout(idle);
    opts.signal?.removeEventListener('abort', forward);
    // leaving a for-await early does not cancel the HTTP request in ollama-js
    if (!finished) iterator?.abort();
  }
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : { value: v };
  } catch {
    return { input: text };
  }
}
