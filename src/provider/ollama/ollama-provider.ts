// The Ollama LlmProvider: weight-based slots per host with GPU auto-detection, streamed chat with
// time budgets and classified retries, native or text-based tool calling per model family, and
// model management. Pure decisions live in the files it imports; this class does the I/O.
import type { ChatRequest } from 'ollama';
import type { CompletionRequest, LlmProvider, ProviderEventSink, SlotStatus } from '../llm-provider';
import type { LlmCompletionResult, LlmFinishReason } from '../llm-types';
import { classifyProviderError } from './error-classifier';
import { detectGpu, resolveMaxWeight, shouldDetectGpu } from './gpu-tier';
import { normalizeOllamaHost } from './host-routing';
import { toolCallingDecision, thinkParam } from './model-family';
import { canonicalModelName, isCloudModel } from './model-name';
import { resolveModelWeight } from './model-weight';
import { OllamaModels, type ModelDetail, type RunningModel } from './ollama-models';
import { streamChat, type RawChatResult, type StreamBudgets } from './ollama-chat-stream';
import { ProviderError, toProviderError } from '../provider-errors';
import type { ModelPullStatus, PullTrackerOptions } from './pull-tracker';
import { planRetry } from './retry-policy';
import { recordedOptions, samplingOptions } from './request-options';
import { SlotLimiter, SlotLimiterRegistry } from './slot-limiter';
import { toNativeMessages, toOllamaTools, toTextModeMessages } from './text-mode-messages';
import { idleTimeoutFor } from './timeouts';
import { extractToolCallsFromContent } from './tool-calls';

export interface OllamaProviderOptions {
  host: string;
  localHost: string;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  firstByteTimeoutMs: number;
  maxParallel?: number;
  numGpu: number;
  numPredict: number;
  numBatch: number;
  slotWaitTimeoutMs: number;
  /** multiplies retry backoffs (1 = the spec's 1 s, 2 s, 4 s); tests use small values */
  retryDelayScale?: number;
  /** retry jitter source, [0, 1) like Math.random (the default); tests pin it */
  random?: () => number;
  /** clock of the 30 s model-list and /api/show caches (default Date.now); tests advance it */
  now?: () => number;
  /** retention (60 s), clock and timers of finished pull statuses; tests inject them */
  pullTracker?: PullTrackerOptions;
  log?: (level: 'log' | 'warn', message: string) => void;
  /** events of the host rather than of a session (GPU detection), recorded with no session */
  onHostEvent?: ProviderEventSink;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const nsToMs = (ns?: number) => (ns === undefined ? undefined : ns / 1e6);

export class OllamaProvider implements LlmProvider {
  readonly name = 'ollama';
  readonly models: OllamaModels;
  private readonly limiters: SlotLimiterRegistry;
  /** weights granted per model (canonical name: `x` and `x:latest` are one model), oldest first */
  private readonly granted = new Map<string, number[]>();
  /** null = not probed yet (spec: probed after the first release) */
  gpuDetected: boolean | null = null;
  private detecting?: Promise<void>;

  private readonly opts: OllamaProviderOptions;

  constructor(options: OllamaProviderOptions) {
    // one spelling per host: limiters are keyed by it, and GPU detection must upgrade the same
    // limiter that acquireSlot uses (`gpu:11434/` and `http://gpu:11434` are one server)
    this.opts = { ...options, host: normalizeOllamaHost(options.host), localHost: normalizeOllamaHost(options.localHost) };
    const opts = this.opts;
    this.models = new OllamaModels(opts.host, opts.localHost, {
      log: (level, m) => this.log(level, m),
      now: opts.now,
      pullTracker: opts.pullTracker,
    });
    if (!shouldDetectGpu({ maxParallel: opts.maxParallel, numGpu: opts.numGpu })) this.gpuDetected = false;
    this.limiters = new SlotLimiterRegistry(
      () =>
        new SlotLimiter({
          maxWeight: resolveMaxWeight({ maxParallel: opts.maxParallel, numGpu: opts.numGpu }).maxWeight,
          defaultTimeoutMs: opts.slotWaitTimeoutMs,
          onWarning: (m) => this.log('warn', m),
        }),
    );
  }

  get host(): string {
    return this.opts.host;
  }

  private log(level: 'log' | 'warn', message: string): void {
    this.opts.log?.(level, message);
  }

  /** The slot limiter of one Ollama host (any spelling of it: the key is normalized). */
  limiterFor(hostSpelling: string): SlotLimiter {
    return this.limiters.get(normalizeOllamaHost(hostSpelling));
  }

  private async weightOf(model: string, maxWeight: number): Promise<number> {
    if (isCloudModel(model)) return resolveModelWeight({ model, maxWeight }).weight;
    const info = await this.models.modelInfo(model).catch(() => null);
    return resolveModelWeight({ model, parameterSize: info?.details?.parameter_size, maxWeight }).weight;
  }

  async acquireSlot(model: string, signal?: AbortSignal, onStatus?: (s: SlotStatus) => void): Promise<boolean> {
    const limiter = this.limiterFor(this.models.hostFor(model));
    const weight = await this.weightOf(model, limiter.maxWeight);
    const ok = await limiter.acquire(weight, { signal, onStatus });
    const key = canonicalModelName(model);
    if (ok) this.granted.set(key, [...(this.granted.get(key) ?? []), weight]);
    return ok;
  }

  /** Releases with the weight granted at acquire time; the first release triggers GPU detection. */
  releaseSlot(model: string): void {
    const key = canonicalModelName(model);
    const weights = this.granted.get(key) ?? [];
    const weight = weights.shift();
    if (!weights.length) this.granted.delete(key);
    this.limiterFor(this.models.hostFor(model)).release(weight ?? 1);
    if (this.gpuDetected === null && !this.detecting) this.detecting = this.detectGpu();
  }

  async idle(): Promise<void> {
    await this.detecting;
  }

  private async detectGpu(): Promise<void> {
    try {
      const running = await this.models.getRunningModels();
      const detection = detectGpu(running.map((r) => ({ name: r.name, size: r.size, size_vram: r.sizeVram })));
      this.gpuDetected = detection.gpuDetected;
      const limiter = this.limiterFor(this.opts.host);
      const resolved = resolveMaxWeight({ maxParallel: this.opts.maxParallel, numGpu: this.opts.numGpu }, detection, limiter.maxWeight);
      if (resolved.maxWeight !== limiter.maxWeight) limiter.setMaxWeight(resolved.maxWeight);
      if (detection.partialOffload.length) this.log('warn', `models partly on CPU: ${detection.partialOffload.join(', ')}`);
      this.opts.onHostEvent?.('gpu_detected', {
        ...detection,
        host: this.opts.host,
        maxWeight: limiter.maxWeight,
        source: resolved.source,
      });
    } catch (e) {
      // leave gpuDetected null so a later release probes again
      this.log('warn', `GPU detection via /api/ps failed: ${(e as Error).message}`);
      this.detecting = undefined;
    }
  }

  async isAvailable(): Promise<boolean> {
    return this.models.isAvailable();
  }

  listModels(): Promise<string[]> {
    return this.models.refreshModels();
  }

  async describe(model: string): Promise<{ digest: string | null; serverVersion: string | null }> {
    const [digest, serverVersion] = await Promise.all([this.models.digestOf(model).catch(() => null), this.models.serverVersion()]);
    return { digest, serverVersion };
  }

  /**
   * Loads the model; meanwhile asks what every trial's setup asks (the model lists, digest and
   * server version, the model's details for its slot weight), so the first trials find them cached
   * instead of each waiting on those requests. Only the load's failure is reported.
   */
  async warm(model: string): Promise<void> {
    const cached = this.prefetch(model);
    await this.models.load(model);
    await cached;
  }

  /** What a trial's setup asks about `model` (see warm), without loading it; never rejects. */
  async prefetch(model: string): Promise<void> {
    // the merged listing too: each session records it (models_listed), the local Ollama's part included
    await Promise.all([this.describe(model), this.models.modelInfo(model), this.models.refreshModels()]).catch(() => undefined);
  }

  // The spec's model-management API (ollama-provider.spec.md), delegated to OllamaModels.
  refreshModels(): Promise<string[]> {
    return this.models.refreshModels();
  }

  getModelDetails(): Promise<ModelDetail[]> {
    return this.models.getModelDetails();
  }

  getRunningModels(): Promise<RunningModel[]> {
    return this.models.getRunningModels();
  }

  pullModel(model: string, onProgress?: (s: ModelPullStatus) => void): Promise<void> {
    return this.models.pullModel(model, onProgress);
  }

  deleteModel(model: string): Promise<{ success: boolean; error?: string }> {
    return this.models.deleteModel(model);
  }

  getActivePulls(): ModelPullStatus[] {
    return this.models.getActivePulls();
  }

  getPullStatus(model: string): ModelPullStatus | undefined {
    return this.models.getPullStatus(model);
  }

  async complete(req: CompletionRequest): Promise<LlmCompletionResult> {
    const emit = req.onEvent ?? (() => {});
    const host = this.models.hostFor(req.model);
    const info = await this.models.modelInfo(req.model);
    const tools = req.tools ?? [];
    const decision = toolCallingDecision(req.model, info.details, info.capabilities);
    const mode = tools.length ? decision.mode : 'none';
    const think = thinkParam(req.model, info.details, info.capabilities);
    const cloud = isCloudModel(req.model);
    const body: ChatRequest = {
      model: req.model,
      messages: (mode === 'text'
        ? toTextModeMessages(req.messages, tools, { family: decision.family, compact: cloud })
        : toNativeMessages(req.messages)) as ChatRequest['messages'],
      ...(mode === 'native' ? { tools: toOllamaTools(tools) as ChatRequest['tools'] } : {}),
      ...(think !== undefined ? { think } : {}),
      options: {
        num_ctx: req.options?.numCtx,
        num_predict: req.options?.numPredict ?? this.opts.numPredict,
        ...(cloud ? {} : { num_batch: this.opts.numBatch, num_gpu: this.opts.numGpu }),
        ...samplingOptions(req.options),
      },
    };
    emit('inference_request', {
      model: req.model,
      host,
      redirected: host !== this.opts.host,
      mode,
      family: decision.family,
      modeReason: decision.reason,
      toolsSent: Boolean(body.tools),
      toolCount: tools.length,
      think: think ?? null,
      numCtx: req.options?.numCtx ?? null,
      options: recordedOptions(body.options ?? {}),
      messageCount: body.messages?.length ?? 0,
      roles: (body.messages ?? []).map((m) => m.role),
    });
    const budgets = this.streamBudgets(req.model);
    const raw = await this.withRetries(req, emit, () =>
      streamChat(host, body, budgets, {
        signal: req.signal,
        onDelta: req.onDelta,
        onMalformed: (line) => emit('stream_malformed_line', { skipped: true, line: line.slice(0, 200) }),
      }),
    );
    return this.toResult(raw, mode === 'text' ? tools : [], emit);
  }

  /** The time budgets one attempt of a completion for `model` runs under. */
  streamBudgets(model: string): StreamBudgets {
    return {
      firstByteTimeoutMs: this.opts.firstByteTimeoutMs,
      // cloud proxies cut idle connections at ~90 s, so cloud models get the shorter of the two
      idleTimeoutMs: isCloudModel(model) ? Math.min(this.opts.idleTimeoutMs, idleTimeoutFor(model)) : this.opts.idleTimeoutMs,
      requestTimeoutMs: this.opts.requestTimeoutMs,
    };
  }

  private async withRetries(
    req: CompletionRequest,
    emit: ProviderEventSink,
    attempt: () => Promise<RawChatResult>,
  ): Promise<RawChatResult> {
    for (let failures = 0; ;) {
      try {
        return await attempt();
      } catch (e) {
        if (!ProviderError.isInstance(e)) throw e;
        failures++;
        const schedule = req.retrySchedule ?? 'loupe';
        const plan = planRetry(e.info, failures, this.opts.random ?? Math.random, schedule);
        if (!plan.retry) {
          if (plan.reason !== 'not_retryable') {
            emit('inference_retry', {
              attempt: failures,
              schedule,
              giveUp: true,
              reason: plan.reason,
              kind: e.info.kind,
              status: e.info.status ?? null,
              message: e.info.message,
            });
          }
          throw e;
        }
        if (req.signal?.aborted) throw e;
        const delayMs = Math.round(plan.delayMs * (this.opts.retryDelayScale ?? 1));
        emit('inference_retry', {
          attempt: failures,
          schedule,
          delayMs,
          kind: e.info.kind,
          status: e.info.status ?? null,
          retryAfterMs: e.info.retryAfterMs ?? null,
          message: e.info.message,
        });
        try {
          await abortableSleep(delayMs, req.signal);
        } catch (reason) {
          // the caller aborted during the backoff: fail like an abort during the stream does
          throw toProviderError(classifyProviderError(reason, { abortReason: reason }), reason);
        }
      }
    }
  }

  private toResult(raw: RawChatResult, textTools: CompletionRequest['tools'] & object, emit: ProviderEventSink): LlmCompletionResult {
    let content = raw.content;
    let thinking = raw.thinking;
    let toolCalls = raw.toolCalls;
    let source: LlmCompletionResult['toolCallSource'] = toolCalls.length ? 'native' : 'none';
    if (textTools.length && !toolCalls.length && content) {
      const x = extractToolCallsFromContent(content, textTools);
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
          else emit('tool_args_normalized', { callIndex: r.callIndex, from: r.from, to: r.to });
        }
      } else if (x.thinking) {
        content = x.text;
      }
      // a call naming no declared tool is never run under a guessed name: the record says so
      for (const d of x.dropped ?? [])
        emit('tool_call_dropped', { name: d.name, arguments: d.arguments, strategy: d.strategy, reason: d.reason });
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
}
