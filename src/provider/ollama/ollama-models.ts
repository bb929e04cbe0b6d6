// Model management against one configured Ollama host (plus the local one for cloud models):
// merged listing cached 30 s, details with capabilities, running models, pulls with tracked
// progress, delete, reachability.
import { Ollama, type ModelResponse, type ShowResponse } from 'ollama';
import { classifyProviderError } from './error-classifier';
import { hostForModel, isSameOllamaHost, mergeModelLists } from './host-routing';
import { ModelListCache } from './model-list-cache';
import { isCloudModel } from './model-name';
import { toProviderError } from './provider-errors';
import { PullTracker, type ModelPullStatus } from './pull-tracker';

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

export interface ModelInfo {
  details: { family?: string; parameter_size?: string; quantization_level?: string } | null;
  capabilities: string[] | null;
}

const MANAGEMENT_TIMEOUT_MS = 15_000;

function client(host: string, timeoutMs = MANAGEMENT_TIMEOUT_MS): Ollama {
  const timed = (input: string | URL | Request, init?: RequestInit) =>
    fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs) });
  return new Ollama({ host, fetch: timed as typeof fetch });
}

export class OllamaModels {
  private readonly list = new ModelListCache<ModelResponse[]>();
  private readonly infos = new Map<string, { at: number; info: ModelInfo }>();
  private readonly pulls = new PullTracker();
  private readonly pullPromises = new Map<string, Promise<void>>();

  constructor(readonly host: string, readonly localHost: string, private readonly log: (m: string) => void = () => {}) {}

  hostFor(model: string): string {
    const route = hostForModel(model, this.host, this.localHost);
    return route.host;
  }

  /** Installed models on the host, plus cloud models from the local Ollama when the host is remote. */
  async refreshModels(): Promise<string[]> {
    return (await this.listed()).map((m) => m.name);
  }

  private listed(): Promise<ModelResponse[]> {
    return this.list.getOrLoad(async () => {
      const remote = (await client(this.host).list()).models;
      if (isSameOllamaHost(this.host, this.localHost)) return remote;
      const local = await client(this.localHost).list().then((r) => r.models.filter((m) => isCloudModel(m.name)), (e: unknown) => {
        this.log(`local Ollama at ${this.localHost} unreachable for cloud models: ${(e as Error).message}`);
        return [] as ModelResponse[];
      });
      return mergeModelLists(remote, local);
    });
  }

  invalidate(): void {
    this.list.invalidate();
    this.infos.clear();
  }

  /** /api/show (cached like the list); null details/capabilities when the host cannot say. */
  async modelInfo(model: string): Promise<ModelInfo> {
    const cached = this.infos.get(model);
    if (cached && Date.now() - cached.at < 30_000) return cached.info;
    let info: ModelInfo;
    try {
      const show: ShowResponse = await client(this.hostFor(model)).show({ model });
      info = { details: show.details ?? null, capabilities: (show as ShowResponse & { capabilities?: string[] }).capabilities ?? null };
    } catch (e) {
      const classified = classifyProviderError(e);
      if (classified.kind === 'model_not_found') throw toProviderError(classified, e);
      info = { details: null, capabilities: null };
    }
    this.infos.set(model, { at: Date.now(), info });
    return info;
  }

  async getRunningModels(): Promise<RunningModel[]> {
    const { models } = await client(this.host).ps();
    return models.map((m) => ({
      name: m.name, size: m.size, sizeVram: m.size_vram,
      contextLength: (m as typeof m & { context_length?: number }).context_length,
    }));
  }

  async getModelDetails(): Promise<ModelDetail[]> {
    const [models, running] = await Promise.all([this.listed(), this.getRunningModels().catch(() => [] as RunningModel[])]);
    const loaded = new Set(running.map((r) => r.name));
    return Promise.all(models.map(async (m) => {
      const info = await this.modelInfo(m.name).catch(() => ({ details: null, capabilities: null }) as ModelInfo);
      return {
        name: m.name, host: this.hostFor(m.name), sizeBytes: m.size, family: m.details?.family ?? null,
        parameterSize: m.details?.parameter_size ?? null, quantization: m.details?.quantization_level ?? null,
        capabilities: info.capabilities ?? [], cloud: isCloudModel(m.name), loaded: loaded.has(m.name),
      };
    }));
  }

  /** Streams the pull, tracking progress per model; a second pull of the same model joins the first. */
  pullModel(model: string, onProgress?: (s: ModelPullStatus) => void): Promise<void> {
    const running = this.pullPromises.get(model);
    if (running) return running;
    this.pulls.start(model);
    const work = (async () => {
      try {
        const stream = await client(this.hostFor(model), 6 * 60 * 60_000).pull({ model, stream: true });
        for await (const p of stream) {
          const status = this.pulls.update(model, p);
          if (status) onProgress?.(status);
        }
        const done = this.pulls.complete(model);
        if (done) onProgress?.(done);
        this.invalidate();
      } catch (e) {
        const failed = this.pulls.fail(model, e);
        if (failed) onProgress?.(failed);
        throw toProviderError(classifyProviderError(e, { midStream: true }), e);
      } finally {
        this.pullPromises.delete(model);
      }
    })();
    this.pullPromises.set(model, work);
    return work;
  }

  async deleteModel(model: string): Promise<{ success: boolean; error?: string }> {
    try {
      await client(this.hostFor(model)).delete({ model });
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
      const res = await fetch(new URL('/api/version', this.host), { signal: AbortSignal.timeout(3_000) });
      return res.ok;
    } catch {
      return false;
    }
  }

  dispose(): void {
    this.pulls.dispose();
  }
}
