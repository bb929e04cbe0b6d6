// From a scheduled request to what its reply reports: the templated prompt fitted to the loaded
// context (or the 400 a runner that may not truncate answers), the tokens the runner's prompt
// cache reuses, the prompt figures as the configured Ollama version reports them, num_predict,
// and how the model's tool calls come back. The one stateful step is the prompt cache.
import type { StandinModel } from './standin-script';
import type { StandinState } from './standin-context';
import type { PlanOptions } from './standin-reply-plan';
import { DEFAULT_NUM_CTX } from './standin-catalog';
import { PROMPT_TOO_LONG_ERROR } from './standin-fault';
import { listedName } from './standin-catalog';
import { fitPrompt, renderPrompt, type StandinPromptRecord } from './standin-prompt';
import { promptCacheOf } from './standin-prompt-cache';
import { parsesToolCallsNatively, requestHasTools, toolTextFormat } from './standin-tool-text';
import { promptCountQuirks, reportedPromptCounts, reusableTokens } from './standin-version-quirks';

/** What the scheduler's lease says about the runner (fields optional until every scheduler sets them). */
export interface RunnerLease {
  /** the context the runner was loaded with */
  contextLength?: number;
  /** a prompt cache is valid only within one runner */
  runnerId?: number;
  /** this request caused or awaited a (re)load: nothing is cached yet */
  reloaded?: boolean;
}

export interface ReplyInput {
  state: Pick<StandinState, 'version'>;
  kind: 'chat' | 'generate';
  body: Record<string, unknown>;
  model: StandinModel;
  lease: RunnerLease;
  /** the request's options.num_ctx, the fallback when the lease carries no context */
  requestedNumCtx?: number;
}

export interface PreparedReply {
  record: StandinPromptRecord;
  /** the 400 text, when the prompt does not fit and may not be truncated */
  rejection?: string;
  plan: Omit<PlanOptions, 'emitThinking'>;
  prefillMs: number;
}

function numPredictOf(body: Record<string, unknown>): number | undefined {
  const options = body.options as Record<string, unknown> | undefined;
  return typeof options?.num_predict === 'number' ? Math.trunc(options.num_predict) : undefined;
}

export function prepareReply(input: ReplyInput): PreparedReply {
  const { body, model, lease } = input;
  const contextLength =
    lease.contextLength ?? (input.requestedNumCtx && input.requestedNumCtx > 0 ? input.requestedNumCtx : DEFAULT_NUM_CTX);
  const truncate = body.truncate !== false;
  const shift = body.shift !== false;
  const rendered = renderPrompt({ kind: input.kind, messages: body.messages, system: body.system, prompt: body.prompt, tools: body.tools });
  const fitted = fitPrompt(rendered, contextLength, { truncate, shift });
  const rejected = fitted.tooLong && !(truncate && shift);
  const quirks = promptCountQuirks(input.state.version);
  let cached = 0;
  if (!rejected) {
    const prefix = promptCacheOf(input.state).take(listedName(model), lease.runnerId ?? 0, lease.reloaded ?? false, fitted.tokens);
    cached = reusableTokens(fitted.tokens.length, prefix, quirks);
  }
  const record: StandinPromptRecord = {
    contextLength,
    fullTokens: fitted.fullTokens,
    tokens: fitted.tokens.length,
    cachedTokens: cached,
    droppedMessages: fitted.droppedMessages,
    droppedTokens: fitted.droppedTokens,
    rejected,
  };
  const uncached = fitted.tokens.length - cached;
  const pps = model.prefillTokensPerSecond;
  return {
    record,
    rejection: rejected ? PROMPT_TOO_LONG_ERROR : undefined,
    plan: {
      prompt: reportedPromptCounts(fitted.tokens.length, cached, quirks),
      numPredict: numPredictOf(body),
      nativeToolCalls: parsesToolCallsNatively(model, input.kind === 'chat' && requestHasTools(body.tools)),
      builtinParser: parsesToolCallsNatively(model, false),
      toolFormat: toolTextFormat(model),
    },
    prefillMs: pps && pps > 0 ? (uncached * 1000) / pps : 0,
  };
}
