// Spans of one session, named and attributed per the OpenTelemetry GenAI conventions (pinned in
// telemetry/gen-ai-attributes.ts). Loop decisions become events on the iteration span.
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type HrTime, type Span } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { LlmCompletionResult } from '../provider/llm-types';
import { GEN_AI, GEN_AI_OPERATION, GEN_AI_PROVIDER_OLLAMA, LOUPE_ATTR, SPAN_NAMES } from '../telemetry/gen-ai-attributes';
import { ollamaPhaseTimeline } from './ollama-phase-timeline';
import { getTracer } from '../telemetry/telemetry';

export function startSessionSpan(agent: string, sessionId: string, model: string, trialId?: string | null): { span: Span; ctx: Context } {
  const span = getTracer().startSpan(
    SPAN_NAMES.invokeAgent(agent),
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [GEN_AI.OPERATION_NAME]: GEN_AI_OPERATION.INVOKE_AGENT,
        [GEN_AI.PROVIDER_NAME]: GEN_AI_PROVIDER_OLLAMA,
        [GEN_AI.AGENT_NAME]: agent,
        [GEN_AI.CONVERSATION_ID]: sessionId,
        [GEN_AI.REQUEST_MODEL]: model,
        [LOUPE_ATTR.SESSION_ID]: sessionId,
        ...(trialId ? { [LOUPE_ATTR.TRIAL_ID]: trialId } : {}),
      },
    },
    context.active(),
  );
  return { span, ctx: trace.setSpan(context.active(), span) };
}

export function startChildSpan(parent: Context, name: string, kind: SpanKind, attributes: Attributes): { span: Span; ctx: Context } {
  const span = getTracer().startSpan(name, { kind, attributes }, parent);
  return { span, ctx: trace.setSpan(parent, span) };
}

export function startIterationSpan(parent: Context, index: number): { span: Span; ctx: Context } {
  return startChildSpan(parent, SPAN_NAMES.agentTurn, SpanKind.INTERNAL, {
    [LOUPE_ATTR.TURN_INDEX]: index,
  });
}

export function startChatSpan(parent: Context, model: string, host: string, toolsOffered: number): { span: Span; ctx: Context } {
  let address = host;
  let port: number | undefined;
  try {
    const u = new URL(host);
    address = u.hostname;
    port = Number(u.port) || undefined;
  } catch {
    // not a URL: keep as given
  }
  return startChildSpan(parent, SPAN_NAMES.chat(model), SpanKind.CLIENT, {
    [GEN_AI.OPERATION_NAME]: GEN_AI_OPERATION.CHAT,
    [GEN_AI.PROVIDER_NAME]: GEN_AI_PROVIDER_OLLAMA,
    [GEN_AI.SYSTEM_DEPRECATED]: GEN_AI_PROVIDER_OLLAMA,
    [GEN_AI.REQUEST_MODEL]: model,
    [GEN_AI.REQUEST_STREAM]: true,
    [GEN_AI.SERVER_ADDRESS]: address,
    ...(port ? { [GEN_AI.SERVER_PORT]: port } : {}),
    'loupe.tools.offered': toolsOffered,
  });
}

/**
 * Ends a chat span with the response's GenAI attributes and its latency split; Ollama's durations
 * become child spans laid end to end before the last chunk (load, queue, prefill, decode), so a trace
 * shows where the time went. The loop's own calls also put the split on their iteration span.
 */
export function endChatSpan(span: Span, r: LlmCompletionResult, iterationSpan?: Span): void {
  const split = latencySplitAttributes(r);
  span.setAttributes({
    [GEN_AI.RESPONSE_MODEL]: r.model,
    [GEN_AI.RESPONSE_FINISH_REASONS]: [r.finishReason],
    [GEN_AI.USAGE_INPUT_TOKENS]: r.usage.inputTokens,
    [GEN_AI.USAGE_OUTPUT_TOKENS]: r.usage.outputTokens,
    [LOUPE_ATTR.TOOL_CALL_SOURCE]: r.toolCallSource,
    ...(r.timings.firstChunkMs !== undefined ? { [GEN_AI.RESPONSE_TIME_TO_FIRST_CHUNK]: r.timings.firstChunkMs / 1000 } : {}),
    ...split,
  });
  iterationSpan?.setAttributes({
    ...split,
    [GEN_AI.USAGE_INPUT_TOKENS]: r.usage.inputTokens,
    [GEN_AI.USAGE_OUTPUT_TOKENS]: r.usage.outputTokens,
  });
  span.end();
  const ended = span as Partial<Pick<ReadableSpan, 'startTime' | 'endTime'>>;
  if (!ended.startTime || !ended.endTime) return; // a non-recording span has no times to anchor to
  const phases = ollamaPhaseTimeline(hrToNs(ended.startTime), hrToNs(ended.endTime), r.timings);
  const parent = trace.setSpan(context.active(), span);
  for (const p of phases) {
    const attributes = { [LOUPE_ATTR.OLLAMA_PHASE]: p.phase };
    getTracer()
      .startSpan(SPAN_NAMES.ollamaPhase(p.phase), { kind: SpanKind.INTERNAL, startTime: nsToHr(p.startNs), attributes }, parent)
      .end(nsToHr(p.endNs));
  }
}

function latencySplitAttributes(r: LlmCompletionResult): Attributes {
  const t = r.timings;
  const out: Attributes = { [LOUPE_ATTR.WALL_MS]: Math.round(t.wallMs) };
  if (t.firstChunkMs !== undefined) out[LOUPE_ATTR.FIRST_TOKEN_MS] = Math.round(t.firstChunkMs);
  if (t.loadMs !== undefined) out[LOUPE_ATTR.LOAD_MS] = t.loadMs;
  if (t.serverQueueMs !== undefined) out[LOUPE_ATTR.SERVER_QUEUE_MS] = t.serverQueueMs;
  if (t.promptEvalMs !== undefined) out[LOUPE_ATTR.PREFILL_MS] = t.promptEvalMs;
  if (t.evalMs !== undefined) out[LOUPE_ATTR.DECODE_MS] = t.evalMs;
  return out;
}

const hrToNs = ([s, ns]: HrTime): bigint => BigInt(s) * 1_000_000_000n + BigInt(ns);
const nsToHr = (ns: bigint): HrTime => [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];

/** The session's totals and how it ended, on its invoke_agent span, which this ends. */
export function endSessionSpan(
  root: Span,
  session: { terminationReason: string; inputTokens: number; outputTokens: number; exitCode: number; error?: string },
): void {
  root.setAttributes({
    [LOUPE_ATTR.TERMINATION_REASON]: session.terminationReason,
    [GEN_AI.USAGE_INPUT_TOKENS]: session.inputTokens,
    [GEN_AI.USAGE_OUTPUT_TOKENS]: session.outputTokens,
  });
  if (session.exitCode !== 0) failSpan(root, session.terminationReason, session.error);
  root.end();
}

export function startToolSpan(parent: Context, name: string, callId: string, args: Record<string, unknown>): { span: Span; ctx: Context } {
  const json = JSON.stringify(args);
  return startChildSpan(parent, SPAN_NAMES.executeTool(name), SpanKind.INTERNAL, {
    [GEN_AI.OPERATION_NAME]: GEN_AI_OPERATION.EXECUTE_TOOL,
    [GEN_AI.TOOL_NAME]: name,
    [GEN_AI.TOOL_CALL_ID]: callId,
    [GEN_AI.TOOL_TYPE]: 'function',
    [GEN_AI.TOOL_CALL_ARGUMENTS]: json.length > 2000 ? `${json.slice(0, 2000)}…` : json,
  });
}

export function failSpan(span: Span, errorType: string, message?: string): void {
  span.setAttribute(GEN_AI.ERROR_TYPE, errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** Span-event attributes must be primitives or arrays of them; nested payloads go in as JSON. */
export function toSpanAttributes(payload: Record<string, unknown>): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(payload)) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    else out[k] = JSON.stringify(v).slice(0, 2000);
  }
  return out;
}
