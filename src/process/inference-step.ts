// One model call inside an iteration: a `chat {model}` CLIENT span under the iteration span, the
// provider's own events (retries, extraction, repairs) journaled against it, and the silent-truncation
// guard on the way in and out.
import { context } from '@opentelemetry/api';
import { checkPromptFit, estimateMessagesTokens, type PromptFitOverflow } from '../context';
import type { PreparedPrompt } from '../provider/llm-provider';
import type { LlmCompletionResult, LlmMessage, LlmToolDefinition } from '../provider/llm-types';
import { ProviderError } from '../provider/provider-errors';
import type { LoopRuntime } from './loop-runtime';
import type { IterationOutcome } from './policies/iteration-outcome';
import type { SamplingSettings } from './policies/loop-settings';
import { endChatSpan, failSpan, startChatSpan, startIterationSpan } from './loop-tracing';

export type InferencePurpose = 'step' | 'epilogue' | 'compaction' | 'grace_turn';

export interface InferenceInput {
  purpose: InferencePurpose;
  messages: LlmMessage[];
  tools: LlmToolDefinition[];
  /** cancels this call only (gemini-cli's grace period); default: the session's signal */
  signal?: AbortSignal;
}

/** Opens an iteration: its span (parent of chat and tool spans) and its row. */
export function beginIteration(rt: LoopRuntime, purpose: InferencePurpose): number {
  const idx = rt.counters.iterations;
  rt.count({ kind: 'iteration_started' });
  const { span, ctx } = startIterationSpan(rt.rootCtx, idx);
  span.setAttribute('loupe.iteration.purpose', purpose);
  rt.iterationSpan = span;
  rt.iterationCtx = ctx;
  rt.recorder.iterationStarted(idx, rt.options.model, {}, { span });
  rt.record('iteration_started', { purpose, contextMessages: rt.context.length }, idx);
  return idx;
}

export function endIteration(
  rt: LoopRuntime,
  idx: number,
  outcome: IterationOutcome,
  status: 'finished' | 'failed' | 'aborted' = 'finished',
): void {
  rt.recorder.iterationUpdated(idx, { outcome, status }, true);
  rt.record('iteration_finished', { outcome, status }, idx);
  rt.iterationSpan?.setAttribute('loupe.iteration.outcome', outcome);
  rt.iterationSpan?.end();
  rt.iterationSpan = undefined;
  rt.iterationCtx = rt.rootCtx;
}

export async function runInference(rt: LoopRuntime, iteration: number, input: InferenceInput): Promise<LlmCompletionResult> {
  const { provider } = rt.options;
  const numCtx = rt.settings.numCtx;
  // Loupe's silent-truncation guard (profiles with another pre-flight check run theirs in the loop),
  // judged on the provider's estimate of the body it sends against the runner's loaded context
  const guard = rt.settings.preflight === 'record';
  let before: PromptFitOverflow | null = null;
  const onPrepared = (p: PreparedPrompt) => {
    before = guard ? checkPromptFit({ estimatedPromptTokens: p.estimatedTokens, numCtx: p.contextLength ?? numCtx }) : null;
    if (before)
      rt.record(
        'context_overflow',
        { ...before, contextSource: p.contextSource, phase: 'before_send', purpose: input.purpose, action: 'record' },
        iteration,
      );
  };
  const { span, ctx } = startChatSpan(rt.iterationCtx, rt.options.model, provider.host, input.tools.length);
  span.setAttribute('loupe.inference.purpose', input.purpose);
  rt.count({ kind: 'inference_made' });
  try {
    const result = await context.with(ctx, () =>
      provider.complete({
        model: rt.options.model,
        messages: input.messages,
        tools: input.tools.length ? input.tools : undefined,
        signal: input.signal ?? rt.signal,
        options: { numCtx, ...samplingOf(rt.settings), seed: rt.options.seed },
        retrySchedule: rt.settings.retrySchedule,
        tokenEstimator: rt.settings.tokenEstimator,
        toolCallExtraction: rt.settings.toolCallExtraction,
        onPrepared,
        measured: true,
        onDelta: streamTap(rt, iteration, input.purpose),
        onEvent: (type, payload) => rt.record(type, { ...payload, purpose: input.purpose }, iteration, span),
      }),
    );
    endChatSpan(span, result, input.purpose !== 'compaction' ? rt.iterationSpan : undefined);
    const estimated = result.prompt?.estimatedTokens ?? estimateMessagesTokens(input.messages, rt.settings.tokenEstimator);
    // the whole prompt as the server counted it (per its version); null: cannot be told, not judged
    const reported = result.prompt ? result.prompt.reportedTokens : result.usage.inputTokens || null;
    if (input.purpose !== 'compaction') {
      rt.recorder.iterationUpdated(iteration, {
        finishReason: result.finishReason,
        toolCallSource: result.toolCallSource,
        toolCallCount: result.toolCalls.length,
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        estimatedPromptTokens: estimated,
        contextMessages: input.messages.length,
        wallMs: Math.round(result.timings.wallMs),
        firstTokenMs: round(result.timings.firstChunkMs),
        loadMs: round(result.timings.loadMs),
        prefillMs: round(result.timings.promptEvalMs),
        decodeMs: round(result.timings.evalMs),
        serverQueueMs: round(result.timings.serverQueueMs),
      });
      rt.lastPromptTokens = reported ?? (result.usage.inputTokens || undefined);
    }
    // Ollama truncates silently to the loaded context and reports prompt_eval_count after truncating.
    const after = guard
      ? checkPromptFit({ estimatedPromptTokens: estimated, promptEvalCount: reported, numCtx: result.prompt?.contextLength ?? numCtx })
      : null;
    const beforeReason = (before as PromptFitOverflow | null)?.reason;
    if (after && after.reason !== beforeReason)
      rt.record(
        'context_overflow',
        {
          ...after,
          contextSource: result.prompt?.contextSource,
          cached: result.prompt?.cachedTokens ?? null,
          phase: 'after_response',
          purpose: input.purpose,
          action: 'record',
        },
        iteration,
      );
    return result;
  } catch (e) {
    failSpan(span, ProviderError.isInstance(e) ? e.info.kind : (e as Error).name, (e as Error).message);
    span.end();
    throw e;
  }
}

/** The session's live-watch callback bound to this call's place (none: the provider streams to nobody). */
function streamTap(rt: LoopRuntime, iteration: number, purpose: InferencePurpose) {
  const onDelta = rt.options.onDelta;
  const at = { iteration, purpose };
  return onDelta && ((d: { content?: string; thinking?: string }) => onDelta(d, at));
}

/** The session's sampling settings (unset ones stay unset: not sent). */
function samplingOf(s: SamplingSettings): SamplingSettings {
  return { temperature: s.temperature, topP: s.topP, topK: s.topK, minP: s.minP, repeatPenalty: s.repeatPenalty };
}

function round(n: number | undefined): number | null {
  return n === undefined ? null : Math.round(n);
}
