// Spans of one session, named and attributed per the OpenTelemetry GenAI conventions (pinned in
// telemetry/gen-ai-attributes.ts). Loop decisions become events on the iteration span.
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { LlmCompletionResult } from '../provider/llm-types';
import { GEN_AI, GEN_AI_OPERATION, GEN_AI_PROVIDER_OLLAMA, LOUPE_ATTR, SPAN_NAMES } from '../telemetry/gen-ai-attributes';
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
    [GEN_AI.AGENT_TURN_INDEX]: index,
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

export function endChatSpan(span: Span, r: LlmCompletionResult): void {
  span.setAttributes({
    [GEN_AI.RESPONSE_MODEL]: r.model,
    [GEN_AI.RESPONSE_FINISH_REASONS]: [r.finishReason],
    [GEN_AI.USAGE_INPUT_TOKENS]: r.usage.inputTokens,
    [GEN_AI.USAGE_OUTPUT_TOKENS]: r.usage.outputTokens,
    [LOUPE_ATTR.TOOL_CALL_SOURCE]: r.toolCallSource,
    ...(r.timings.firstChunkMs !== undefined ? { [GEN_AI.RESPONSE_TIME_TO_FIRST_CHUNK]: r.timings.firstChunkMs / 1000 } : {}),
    ...(r.timings.loadMs !== undefined ? { [LOUPE_ATTR.LOAD_MS]: r.timings.loadMs } : {}),
    ...(r.timings.promptEvalMs !== undefined ? { [LOUPE_ATTR.PREFILL_MS]: r.timings.promptEvalMs } : {}),
    ...(r.timings.evalMs !== undefined ? { [LOUPE_ATTR.DECODE_MS]: r.timings.evalMs } : {}),
    ...(r.timings.serverQueueMs !== undefined ? { [LOUPE_ATTR.SERVER_QUEUE_MS]: r.timings.serverQueueMs } : {}),
  });
  span.end();
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
