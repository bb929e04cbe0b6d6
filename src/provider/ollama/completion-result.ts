// A streamed reply as the loop sees it: the text-mode tool calls read from its content, and its
// Ollama durations as timings. Pure apart from the events it hands to the sink.
import type { CompletionRequest, ProviderEventSink } from '../llm-provider';
import type { LlmCompletionResult, LlmFinishReason } from '../llm-types';
import type { RawChatResult } from './ollama-chat-stream';
import { extractToolCallsFromContent } from './tool-calls';
import type { ExtractionPolicy } from './tool-calls/types';

const nsToMs = (ns?: number) => (ns === undefined ? undefined : ns / 1e6);

/**
 * The completion a raw reply makes: with text tools, the tool calls extracted from its content (each
 * repair and dropped call journaled), and its timings in ms, the server's queueing derived from them.
 */
export function toCompletionResult(
  raw: RawChatResult,
  textTools: NonNullable<CompletionRequest['tools']>,
  emit: ProviderEventSink,
  policy: ExtractionPolicy = 'lenient',
): LlmCompletionResult {
  let content = raw.content;
  let thinking = raw.thinking;
  let toolCalls = raw.toolCalls;
  let source: LlmCompletionResult['toolCallSource'] = toolCalls.length ? 'native' : 'none';
  if (textTools.length && !toolCalls.length && content) {
    // a call naming no declared tool still reaches the loop, which answers `Unknown tool: <name>` as for a native call;
    // the model's name says which family's parser reads markers that several families share
    const x = extractToolCallsFromContent(content, textTools, { unknownTools: 'pass', policy, model: raw.model });
    if (x.thinking) thinking = thinking ? `${thinking}\n${x.thinking}` : x.thinking;
    if (x.calls.length) {
      toolCalls = x.calls;
      content = x.text;
      source = 'text';
      emit('tool_calls_extracted', {
        strategy: x.strategy,
        strategies: x.strategies,
        count: x.calls.length,
        names: x.calls.map((c) => c.name),
      });
      for (const r of x.repairs) {
        // each repair under its own name: dashboards count name repairs and type coercions apart
        if (r.kind === 'tool_name_repaired') emit('tool_name_repaired', { callIndex: r.callIndex, from: r.from, to: r.to, how: r.how });
        else if (r.kind === 'arg_coerced') emit('tool_args_coerced', { callIndex: r.callIndex, key: r.key, from: r.from, to: r.to });
        else if (r.kind === 'call_repaired') emit('tool_call_repaired', { callIndex: r.callIndex, detail: r.detail });
        else emit('tool_args_normalized', { callIndex: r.callIndex, from: r.from, to: r.to });
      }
    } else if (x.thinking) {
      content = x.text;
    }
    // a call naming no declared tool is never run under a guessed name: the record says extraction could not resolve it
    for (const d of x.dropped ?? [])
      emit('tool_call_dropped', {
        name: d.name,
        arguments: d.arguments,
        strategy: d.strategy,
        reason: d.reason,
        ...(d.detail ? { detail: d.detail } : {}),
      });
  }
  const total = nsToMs(raw.totalNs);
  const load = nsToMs(raw.loadNs);
  const prefill = nsToMs(raw.promptEvalNs);
  const decode = nsToMs(raw.evalNs);
  const queue = total !== undefined ? total - (load ?? 0) - (prefill ?? 0) - (decode ?? 0) : undefined;
  const finishReason: LlmFinishReason = (['stop', 'length', 'load', 'unload'] as const).includes(raw.doneReason as 'stop')
    ? (raw.doneReason as LlmFinishReason)
    : 'unknown';
  return {
    model: raw.model,
    content,
    thinking: thinking || undefined,
    toolCalls,
    toolCallSource: source,
    finishReason,
    usage: { inputTokens: raw.promptEvalCount, outputTokens: raw.evalCount },
    timings: {
      wallMs: raw.wallMs,
      firstChunkMs: raw.firstChunkMs,
      totalMs: total,
      loadMs: load,
      promptEvalMs: prefill,
      evalMs: decode,
      serverQueueMs: queue !== undefined && queue > 0 ? queue : 0,
    },
  };
}
