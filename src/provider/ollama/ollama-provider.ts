// The Ollama LlmProvider: weight-based slots per host with GPU auto-detection, streamed chat with
// time budgets and classified retries, native or text-based tool calling per model family, and
// model management. Pure decisions live in the files it imports; this class does the I/O.
import type { ChatRequest } from 'ollama';
import type { CompletionRequest, LlmProvider, PreparedPrompt, ProviderEventSink, SlotStatus } from '../llm-provider';
import type { LlmCompletionResult } from '../llm-types';
import { toCompletionResult } from './completion-result';
import { withRetries } from './completion-retries';
import { detectGpu, resolveMaxWeight, shouldDetectGpu } from './gpu-tier';
import { normalizeOllamaHost } from './host-routing';
import { toolCallingDecision, thinkParam } from './model-family';
import { canonicalModelName, isCloudModel } from './model-name';
import { resolveModelWeight } from './model-weight';
import { OllamaModels, type ModelDetail, type RunningModel } from './ollama-models';
import { createManagementClient } from './ollama-transport';
import { streamChat, type RawChatResult, type StreamBudgets } from './ollama-chat-stream';
import type { ModelPullStatus, PullTrackerOptions } from './pull-tracker';
import { recordedOptions, samplingOptions } from './request-options';
import { DEFAULT_OLLAMA_KEEP_ALIVE, DEFAULT_OLLAMA_RELOAD_THRESHOLD_MS, DEFAULT_OLLAMA_THINK_LEVEL } from '../../config/loupe-config';
import { parseKeepAlive, type KeepAlive } from './keep-alive';
import type { ThinkLevel } from './model-family';
import { promptCount } from './prompt-count-semantics';
import { estimateRequestTokens } from './request-estimate';
import { runnerOptionsFor, wireRunnerOptions, type RunnerOptions } from './runner-options';
import { RunnerTracker, type SendTicket } from './runner-tracker';
import { SlotLimiter, SlotLimiterRegistry } from './slot-limiter';
import { toNativeMessages, toOllamaTools, toTextModeMessages } from './text-mode-messages';
import { idleTimeoutFor } from './timeouts';
import type { ExtractionPolicy } from './tool-calls/types';

export interface OllamaProviderOptions {
  host: string;
  localHost: string;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  firstByteTimeoutMs: number;
  maxParallel?: number;
  /** sent only when set: a runner option (a change reloads the model) */
  numGpu?: number;
  numPredict: number;
  /** sent only when set: a runner option */
  numBatch?: number;
  /** sent with every load and local chat (default 30m, see loupe-config.ts) */
  keepAlive?: KeepAlive;
  /** the level sent to models that take one (gpt-oss); default "low" */
  thinkLevel?: ThinkLevel;
  /** a reply's load_duration from which it counts as a (re)load, ms (default 1000) */
  reloadThresholdMs?: number;
  slotWaitTimeoutMs: number;
  /** multiplies retry backoffs (1 = the spec's 1 s, 2 s, 4 s); tests use small values */
  retryDelayScale?: number;
  /** text-mode tool calls when the request names no policy (default lenient) */
  toolCallExtraction?: ExtractionPolicy;
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
  private readonly keepAlive: KeepAlive;
  /** per host and model: the runner options last sent, idle time, warm load figure, loaded context */
  private readonly runners: RunnerTracker;

  constructor(options: OllamaProviderOptions) {
    // one spelling per host: limiters are keyed by it, and GPU detection must upgrade the same
    // limiter that acquireSlot uses (`gpu:11434/` and `http://gpu:11434` are one server)
    this.opts = { ...options, host: normalizeOllamaHost(options.host), localHost: normalizeOllamaHost(options.localHost) };
    const opts = this.opts;
    this.keepAlive = opts.keepAlive ?? (parseKeepAlive(DEFAULT_OLLAMA_KEEP_ALIVE) as { ok: true; value: KeepAlive }).value;
    this.runners = new RunnerTracker(opts.now ?? Date.now, opts.reloadThresholdMs ?? DEFAULT_OLLAMA_RELOAD_THRESHOLD_MS);
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
      this.learnContexts(this.opts.host, running);
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
   * Loads the model with exactly the runner options inference will send for `numCtx` (num_batch
   * and num_gpu only when configured) and the run's keep_alive, so the first measured turn does not
   * pay a reload; then reads the loaded context length from /api/ps. Meanwhile asks what every
   * trial's setup asks (the model lists, digest and server version, the model's details for its
   * slot weight), so the first trials find them cached. Only the load's failure is reported.
   */
  async warm(model: string, options: { numCtx?: number } = {}): Promise<void> {
    const cached = this.prefetch(model);
    const host = this.models.hostFor(model);
    const runner = this.runnerOptions(model, options.numCtx);
    const cloud = isCloudModel(model);
    await this.models.load(model, { runner, ...(cloud ? {} : { keepAlive: this.keepAlive.wire }) });
    if (!cloud) {
      this.runners.loaded(host, model, runner, this.keepAlive.ms);
      // a repeated warm-up (its load cached) asks nothing again
      if (this.runners.contextLength(host, model, runner) === undefined) await this.refreshLoadedContext(host, model, runner);
    }
    await cached;
  }

  /** The runner options a request for `model` with this num_ctx sends. */
  runnerOptions(model: string, numCtx?: number): RunnerOptions {
    return runnerOptionsFor({ numCtx, numBatch: this.opts.numBatch, numGpu: this.opts.numGpu, cloud: isCloudModel(model) });
  }

  /** /api/ps's context_length for the model, kept for these runner options; never rejects. */
  private async refreshLoadedContext(host: string, model: string, runner: RunnerOptions): Promise<void> {
    try {
      const { models } = await createManagementClient(host, AbortSignal.timeout(15_000)).ps();
      const entry = models.find((m) => canonicalModelName(m.name) === canonicalModelName(model)) as { context_length?: number } | undefined;
      if (typeof entry?.context_length === 'number' && entry.context_length > 0)
        this.runners.setContextLength(host, model, runner, entry.context_length);
    } catch {
      // the requested num_ctx stands in for it
    }
  }

  /** What a /api/ps listing says of loaded contexts, for models whose runner options are known. */
  private learnContexts(host: string, running: RunningModel[]): void {
    for (const r of running) if (r.contextLength) this.runners.setContextLengthIfIdle(host, r.name, r.contextLength);
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
    const think = thinkParam(req.model, info.details, info.capabilities, { level: this.opts.thinkLevel ?? DEFAULT_OLLAMA_THINK_LEVEL });
    const cloud = isCloudModel(req.model);
    const runner = this.runnerOptions(req.model, req.options?.numCtx);
    const body: ChatRequest = {
      model: req.model,
      messages: (mode === 'text'
        ? toTextModeMessages(req.messages, tools, { family: decision.family, compact: cloud })
        : toNativeMessages(req.messages)) as ChatRequest['messages'],
      ...(mode === 'native' ? { tools: toOllamaTools(tools) as ChatRequest['tools'] } : {}),
      ...(think !== undefined ? { think: think as ChatRequest['think'] } : {}),
      // cloud models have no local runner to keep loaded
      ...(cloud ? {} : { keep_alive: this.keepAlive.wire }),
      options: {
        ...wireRunnerOptions(runner),
        num_predict: req.options?.numPredict ?? this.opts.numPredict,
        ...samplingOptions(req.options),
      },
    };
    // the prompt as sent (text-mode instructions and tool schemas included) against the context
    // the runner was loaded with (/api/ps), or the requested num_ctx when that is not known
    const loadedContext = cloud ? undefined : this.runners.contextLength(host, req.model, runner);
    const estimatedPromptTokens = estimateRequestTokens(body as Parameters<typeof estimateRequestTokens>[0], req.tokenEstimator);
    const prepared: PreparedPrompt = {
      estimatedTokens: estimatedPromptTokens,
      contextLength: loadedContext ?? runner.numCtx ?? null,
      contextSource: loadedContext !== undefined ? 'loaded' : runner.numCtx !== undefined ? 'requested' : 'unknown',
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
      keepAlive: body.keep_alive ?? null,
      estimatedPromptTokens,
      contextLength: prepared.contextLength,
      contextSource: prepared.contextSource,
      messageCount: body.messages?.length ?? 0,
      roles: (body.messages ?? []).map((m) => m.role),
    });
    req.onPrepared?.(prepared);
    // the version of the server that answers: a cloud model routed to the local Ollama is not the host's
    const serverVersion = host === this.opts.host ? this.models.serverVersion() : Promise.resolve(null);
    const budgets = this.streamBudgets(req.model);
    const ticket = cloud ? undefined : this.runners.beforeSend(host, req.model, runner, this.keepAlive.ms);
    let raw: RawChatResult;
    try {
      raw = await withRetries(req, emit, { random: this.opts.random, retryDelayScale: this.opts.retryDelayScale }, () =>
        streamChat(host, body, budgets, {
          signal: req.signal,
          onDelta: req.onDelta,
          onMalformed: (line) => emit('stream_malformed_line', { skipped: true, line: line.slice(0, 200) }),
        }),
      );
    } catch (e) {
      if (ticket) this.runners.failed(ticket);
      throw e;
    }
    if (ticket) await this.noteReply(ticket, raw, req, emit, prepared);
    const version = await serverVersion;
    const policy = req.toolCallExtraction ?? this.opts.toolCallExtraction;
    const result = toCompletionResult(raw, mode === 'text' ? tools : [], emit, policy);
    const count = promptCount({ version, promptEvalCount: raw.promptEvalCountReported, cachedCount: raw.promptCachedCount });
    result.serverVersion = version;
    result.prompt = { ...prepared, reportedTokens: count.total, cachedTokens: count.cached, countSemantics: count.semantics };
    emit('inference_response', {
      model: result.model,
      finishReason: result.finishReason,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      promptEvalCount: count.reported,
      promptCachedCount: count.cached,
      promptTokens: count.total,
      countSemantics: count.semantics,
      serverVersion: version,
      loadMs: result.timings.loadMs ?? null,
      estimatedPromptTokens,
      contextLength: prepared.contextLength,
      contextSource: prepared.contextSource,
    });
    return result;
  }

  /**
   * What a reply tells of the runner: a load on a model the provider believed warm is recorded as
   * model_reloaded (with its cause), and the loaded context is read again from /api/ps after any load.
   */
  private async noteReply(
    ticket: SendTicket,
    raw: RawChatResult,
    req: CompletionRequest,
    emit: ProviderEventSink,
    prepared: PreparedPrompt,
  ) {
    const loadMs = nsToMs(raw.loadNs);
    const seen = this.runners.replied(ticket, loadMs);
    if (seen.finding) {
      const f = seen.finding;
      emit('model_reloaded', {
        model: req.model,
        host: ticket.host,
        loadMs: Math.round(loadMs ?? 0),
        cause: f.cause,
        previous: f.previous,
        next: f.next,
        idleMs: f.idleMs,
        keepAliveMs: f.keepAliveMs,
        measured: req.measured ?? true,
      });
    }
    if (seen.loaded) {
      await this.refreshLoadedContext(ticket.host, req.model, ticket.options);
      const loaded = this.runners.contextLength(ticket.host, req.model, ticket.options);
      if (loaded !== undefined) Object.assign(prepared, { contextLength: loaded, contextSource: 'loaded' });
    }
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
}
