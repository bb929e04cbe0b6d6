// Model management against one configured Ollama host (plus the local one for cloud models):
// merged listing cached 30 s, details with capabilities, running models, pulls with tracked
// progress, delete, reachability.
import type { Ollama, ModelResponse, ShowResponse } from 'ollama';
import { classifyProviderError } from './error-classifier';
import { hostForModel, isSameOllamaHost, mergeModelLists, normalizeOllamaHost } from './host-routing';
import { ModelListCache } from './model-list-cache';
import { canonicalModelName, isCloudModel } from './model-name';
import { toProviderError } from '../provider-errors';
import { createManagementClient } from './ollama-transport';
import { runnerKey, wireRunnerOptions, type RunnerOptions } from './runner-options';
import { PullTracker, type ModelPullStatus, type PullTrackerOptions } from './pull-tracker';

export interface ModelDetail {
  name: string;
  host: string;
  sizeBytes: number;
  family: string | null;
  parameterSize: string | null;
  quantization: string | null;
  capabilities: string[];
  cloud: boolean;
  loaded: boolean;
}

export interface RunningModel {
  name: string;
  size: number;
  sizeVram: number;
  contextLength?: number;
}

/** What a load sends besides the model: the runner options and keep_alive of the chats to follow. */
export interface LoadRequest {
  runner?: RunnerOptions;
  keepAlive?: number | string;
}

export interface ModelInfo {
  details: { family?: string; parameter_size?: string; quantization_level?: string } | null;
  capabilities: string[] | null;
}

const MANAGEMENT_TIMEOUT_MS = 15_000;

export interface OllamaModelsOptions {
  log?: (level: 'log' | 'warn', message: string) => void;
  /** clock of the list and /api/show caches (default Date.now) */
  now?: () => number;
  pullTracker?: PullTrackerOptions;
}

/** a cold load of a large model can take minutes */
export const LOAD_TIMEOUT_MS = 600_000;
/** how long a server's version is taken as known */
const VERSION_TTL_MS = 60_000;

/**
 * One management request on its own client, aborted (TimeoutError, as AbortSignal.timeout does) if
 * it outlasts `timeoutMs`, its timer cleared once it settles: an AbortSignal.timeout per request
 * kept its timer, signal and client alive for the full 15 s after the reply (four per scripted
 * trial, whose stand-in is its own host: thousands at once in a long run).
 */
async function request<T>(host: string, send: (c: Ollama) => Promise<T>, timeoutMs = MANAGEMENT_TIMEOUT_MS): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs);
  timer.unref();
  try {
    return await send(createManagementClient(host, controller.signal));
  } finally {
    clearTimeout(timer);
  }
}

export class OllamaModels {
  private localUnreachableWarned = false;
  readonly host: string;
  readonly localHost: string;
  /** the host's models, and the local Ollama's cloud models (when the host is remote) */
  private readonly list: ModelListCache<ModelResponse[]>;
  private readonly cloudList: ModelListCache<ModelResponse[]>;
  private readonly version: ModelListCache<string>;
  /** /api/show per model: cached like the list, one request for trials asking at once */
  private readonly infos = new Map<string, ModelListCache<ModelInfo>>();
  /** successful loads per model and runner options, taken as current as long as a listing would be */
  private readonly loads = new Map<string, ModelListCache<true>>();
  private readonly pulls: PullTracker;
  /** running pulls by canonical name, with everyone who asked for progress */
  private readonly pullRuns = new Map<string, { work: Promise<void>; listeners: Array<(s: ModelPullStatus) => void> }>();
  private readonly redirectsLogged = new Set<string>();
  private readonly now: () => number;
  private readonly log: (level: 'log' | 'warn', message: string) => void;

  constructor(host: string, localHost: string, options: OllamaModelsOptions = {}) {
    this.host = normalizeOllamaHost(host);
    this.localHost = normalizeOllamaHost(localHost);
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.list = new ModelListCache<ModelResponse[]>({ now: this.now });
    this.cloudList = new ModelListCache<ModelResponse[]>({ now: this.now });
    this.version = new ModelListCache<string>({ now: this.now, ttlMs: VERSION_TTL_MS });
    this.pulls = new PullTracker(options.pullTracker);
  }

  hostFor(model: string): string {
    const route = hostForModel(model, this.host, this.localHost);
    if (route.redirected && !this.redirectsLogged.has(model)) {
      this.redirectsLogged.add(model);
      this.log(
        'log',
        `cloud model ${model} routed to the local Ollama at ${route.host} instead of ${this.host} (it proxies the ollama.com sign-in)`,
      );
    }
    return route.host;
  }

  /** Installed models on the host, plus cloud models from the local Ollama when the host is remote. */
  async refreshModels(): Promise<string[]> {
    return (await this.listed()).map((m) => m.name);
  }

  private async listed(): Promise<ModelResponse[]> {
    // both hosts asked at once: a trial's setup waits for the listing
    const [remote, local] = await Promise.all([this.remoteListed(), this.localCloudListed()]);
    return mergeModelLists(remote, local);
  }

  private remoteListed(): Promise<ModelResponse[]> {
    return this.list.getOrLoad(async () => (await request(this.host, (c) => c.list())).models);
  }

  /** The local Ollama's cloud models, when the host is remote (cloud models are routed there). */
  private localCloudListed(): Promise<ModelResponse[]> {
    if (isSameOllamaHost(this.host, this.localHost)) return Promise.resolve([]);
    return this.cloudList.getOrLoad(() =>
      request(this.localHost, (c) => c.list()).then(
        (r) => {
          this.localUnreachableWarned = false;
          return r.models.filter((m) => isCloudModel(m.name));
        },
        (e: unknown) => {
          // once per outage: a remote-only setup without a local Ollama would warn on every listing
          if (!this.localUnreachableWarned)
            this.log('warn', `local Ollama at ${this.localHost} unreachable for cloud models: ${(e as Error).message}`);
          this.localUnreachableWarned = true;
          return [] as ModelResponse[];
        },
      ),
    );
  }

  invalidate(): void {
    this.list.invalidate();
    this.cloudList.invalidate();
    this.infos.clear();
    this.loads.clear();
  }

  /** /api/show (cached like the list); null details/capabilities when the host cannot say. */
  async modelInfo(model: string): Promise<ModelInfo> {
    let cache = this.infos.get(model);
    if (!cache) this.infos.set(model, (cache = new ModelListCache<ModelInfo>({ now: this.now })));
    try {
      return await cache.getOrLoad(async () => {
        const show: ShowResponse = await request(this.hostFor(model), (c) => c.show({ model }));
        return { details: show.details ?? null, capabilities: (show as ShowResponse & { capabilities?: string[] }).capabilities ?? null };
      });
    } catch (e) {
      const classified = classifyProviderError(e);
      if (classified.kind === 'model_not_found') throw toProviderError(classified, e);
      // not cached: a host that was down or busy a moment ago should be asked again next time,
      // not leave the model without capabilities (and so maybe in the wrong tool mode) for 30 s
      return { details: null, capabilities: null };
    }
  }

  /** The model's digest as the host lists it (null when it does not list the model). */
  async digestOf(model: string): Promise<string | null> {
    const bare = (m: string) => m.replace(/:latest$/, '').toLowerCase();
    // a model that is not routed to the local Ollama is found in the host's own list (as in the
    // merged one, where the host's entries come first): no wait for the local listing
    const list = this.hostFor(model) === this.host ? await this.remoteListed() : await this.listed();
    return list.find((m) => bare(m.name) === bare(model))?.digest ?? null;
  }

  /**
   * GET /api/version (null when the host does not answer). An answer is kept for a minute: every
   * trial records it, and asking the server each time cost a request per trial; trials starting
   * together share one request.
   */
  serverVersion(): Promise<string | null> {
    return this.version.getOrLoad(async () => (await request(this.host, (c) => c.version())).version).catch(() => null);
  }

  /**
   * Loads the model without generating (a chat with no messages), with the runner options and
   * keep_alive the chats after it will send: a load with other options would be followed by a
   * reload. A load that succeeded is not sent again for the same model and options while the list
   * would be cached (the eval's warm-up before its database is up and the run's own warm-up at its
   * start then cost one load, not two); other options are sent again.
   */
  async load(model: string, load: LoadRequest = {}): Promise<void> {
    const key = `${model}|${runnerKey(load.runner ?? {})}`;
    let cache = this.loads.get(key);
    if (!cache) this.loads.set(key, (cache = new ModelListCache<true>({ now: this.now })));
    await cache.getOrLoad(async () => {
      const options = wireRunnerOptions(load.runner ?? {});
      await request(
        this.hostFor(model),
        (c) =>
          c.chat({
            model,
            messages: [],
            stream: false,
            ...(Object.keys(options).length ? { options } : {}),
            ...(load.keepAlive !== undefined ? { keep_alive: load.keepAlive } : {}),
          }),
        LOAD_TIMEOUT_MS,
      );
      return true;
    });
  }

  async getRunningModels(): Promise<RunningModel[]> {
    const { models } = await request(this.host, (c) => c.ps());
    return models.map((m) => ({
      name: m.name,
      size: m.size,
      sizeVram: m.size_vram,
      contextLength: (m as typeof m & { context_length?: number }).context_length,
    }));
  }

  async getModelDetails(): Promise<ModelDetail[]> {
    const [models, running] = await Promise.all([this.listed(), this.getRunningModels().catch(() => [] as RunningModel[])]);
    const loaded = new Set(running.map((r) => r.name));
    return Promise.all(
      models.map(async (m) => {
        const info = await this.modelInfo(m.name).catch(() => ({ details: null, capabilities: null }) as ModelInfo);
        return {
          name: m.name,
          host: this.hostFor(m.name),
          sizeBytes: m.size,
          family: m.details?.family ?? null,
          parameterSize: m.details?.parameter_size ?? null,
          quantization: m.details?.quantization_level ?? null,
          capabilities: info.capabilities ?? [],
          cloud: isCloudModel(m.name),
          loaded: loaded.has(m.name),
        };
      }),
    );
  }

  /**
   * Streams the pull, tracking progress per model; a second pull of the same model (`x` and
   * `x:latest` alike) joins the first: one download, and both callers get its progress.
   */
  pullModel(model: string, onProgress?: (s: ModelPullStatus) => void): Promise<void> {
    const key = canonicalModelName(model);
    const running = this.pullRuns.get(key);
    if (running) {
      if (onProgress) running.listeners.push(onProgress);
      return running.work;
    }
    const listeners = onProgress ? [onProgress] : [];
    const report = (status: ModelPullStatus | undefined) => {
      if (!status) return;
      for (const listener of listeners) listener(status);
    };
    this.pulls.start(model);
    const work = (async () => {
      try {
        await request(
          this.hostFor(model),
          async (c) => {
            for await (const p of await c.pull({ model, stream: true })) report(this.pulls.update(model, p));
          },
          6 * 60 * 60_000,
        );
        report(this.pulls.complete(model));
        this.invalidate();
      } catch (e) {
        report(this.pulls.fail(model, e));
        throw toProviderError(classifyProviderError(e, { midStream: true }), e);
      } finally {
        this.pullRuns.delete(key);
      }
    })();
    this.pullRuns.set(key, { work, listeners });
    return work;
  }

  async deleteModel(model: string): Promise<{ success: boolean; error?: string }> {
    try {
      await request(this.hostFor(model), (c) => c.delete({ model }));
      this.invalidate();
      return { success: true };
    } catch (e) {
      return { success: false, error: classifyProviderError(e).message };
    }
  }

  getActivePulls(): ModelPullStatus[] {
    return this.pulls.getActivePulls();
  }

  getPullStatus(model: string): ModelPullStatus | undefined {
    return this.pulls.getPullStatus(model);
  }

  async isAvailable(): Promise<boolean> {
    try {
      await request(this.host, (c) => c.version(), 3_000);
      return true;
    } catch {
      return false;
    }
  }

  dispose(): void {
    this.pulls.dispose();
  }
}
