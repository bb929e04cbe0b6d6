// Model management on the configured Ollama host (OLLAMA_HOST, or the local default), recorded as
// host-level journal events and traced: list, running, pull with progress, delete.
import { Injectable } from '@nestjs/common';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { HostRecorder } from '../journal/host-recorder';
import { JournalService } from '../journal/journal.service';
import { GEN_AI, GEN_AI_PROVIDER_OLLAMA } from '../telemetry/gen-ai-attributes';
import { getTracer } from '../telemetry/telemetry';
import { NotFoundError, UnavailableError } from '../common/request-errors';
import { diagnoseModel, type ModelDiagnosis } from './ollama/model-diagnostics';
import { ModelListCache } from './ollama/model-list-cache';
import type { ModelDetail, RunningModel } from './ollama/ollama-models';
import { OllamaProviderFactory } from './ollama/ollama-provider.factory';
import type { ModelPullStatus } from './ollama/pull-tracker';
import { classifyProviderError } from './ollama/error-classifier';

/** Progress is journaled on each new status and every this many percent, not on every line. */
const PULL_EVENT_STEP_PERCENT = 10;

export interface AvailableModels {
  host: string;
  models: ModelDetail[];
  /** when the host was last asked; the answer is reused for 30 s (the MCP agent's probe-per-call is slow) */
  fetchedAt: string;
  ageMs: number;
}

export interface ModelCheck {
  host: string;
  reachable: boolean;
  version: string | null;
  models: ModelDiagnosis[];
}

@Injectable()
export class ModelsService {
  private readonly host: HostRecorder;
  /** the detailed list for the API: details, capabilities and loaded state, asked of the host at most every 30 s */
  private readonly available$ = new ModelListCache<{ models: ModelDetail[]; fetchedAt: number }>();

  constructor(
    private readonly providers: OllamaProviderFactory,
    journal: JournalService,
  ) {
    this.host = new HostRecorder(journal);
  }

  get ollamaHost(): string {
    return this.providers.default().host;
  }

  list(): Promise<ModelDetail[]> {
    return this.providers.default().getModelDetails();
  }

  /** 503 when the host cannot be asked, as its siblings answer. */
  async running(): Promise<RunningModel[]> {
    try {
      return await this.providers.default().getRunningModels();
    } catch (e) {
      throw new UnavailableError(`Ollama at ${this.ollamaHost} cannot list its running models: ${classifyProviderError(e).message}`);
    }
  }

  isAvailable(): Promise<boolean> {
    return this.providers.default().isAvailable();
  }

  /** What the host can serve, from the cache unless `refresh` (or 30 s have passed); 503 when unreachable. */
  async available(refresh = false): Promise<AvailableModels> {
    if (refresh) {
      this.available$.invalidate();
      this.providers.default().models.invalidate();
    }
    try {
      const { models, fetchedAt } = await this.available$.getOrLoad(async () => ({ models: await this.list(), fetchedAt: Date.now() }));
      return { host: this.ollamaHost, models, fetchedAt: new Date(fetchedAt).toISOString(), ageMs: Date.now() - fetchedAt };
    } catch (e) {
      throw new UnavailableError(`Ollama at ${this.ollamaHost} cannot list its models: ${classifyProviderError(e).message}`);
    }
  }

  /** Per-model diagnostics: every available model, or the ones named (installed or not); an unreachable host is a finding. */
  async check(names: string[] = []): Promise<ModelCheck> {
    const provider = this.providers.default();
    const [reachable, version] = await Promise.all([provider.isAvailable(), provider.models.serverVersion()]);
    if (!reachable) return { host: provider.host, reachable, version, models: [] };
    const { models } = await this.available();
    const byName = new Map(models.map((m) => [m.name, m]));
    const wanted = names.length ? names : models.map((m) => m.name);
    const maxWeight = provider.limiterFor(provider.host).maxWeight;
    const diagnoses = await Promise.all(
      wanted.map(async (name) => {
        const detail = byName.get(name) ?? byName.get(`${name}:latest`);
        const info = detail ? await provider.models.modelInfo(detail.name).catch(() => null) : null;
        return diagnoseModel(name, detail, info, maxWeight);
      }),
    );
    return { host: provider.host, reachable, version, models: diagnoses };
  }

  /** One installed model: its listing, /api/show details and the diagnosis; 404 when the host does not have it. */
  async details(name: string): Promise<ModelDetail & { diagnosis: ModelDiagnosis }> {
    const { models } = await this.available();
    const detail = models.find((m) => m.name === name || m.name === `${name}:latest`);
    if (!detail) throw new NotFoundError(`${this.ollamaHost} has no model ${name}`);
    const provider = this.providers.default();
    const info = await provider.models.modelInfo(detail.name).catch(() => null);
    return { ...detail, diagnosis: diagnoseModel(detail.name, detail, info, provider.limiterFor(provider.host).maxWeight) };
  }

  /** Starts a pull in the background (or joins the running one); progress through activePulls() and model_pull events. */
  startPull(model: string): ModelPullStatus {
    const running = this.providers.default().getPullStatus(model);
    if (running && running.status !== 'success' && running.status !== 'error') return running;
    void this.pull(model).catch(() => undefined); // the failure is in its status and its model_pull event
    return (
      this.providers.default().getPullStatus(model) ?? {
        model,
        status: 'starting',
        percent: 0,
        completedBytes: 0,
        totalBytes: 0,
        startedAt: Date.now(),
      }
    );
  }

  activePulls(): ModelPullStatus[] {
    return this.providers.default().getActivePulls();
  }

  async pull(model: string, onProgress?: (s: ModelPullStatus) => void): Promise<ModelPullStatus | undefined> {
    const provider = this.providers.default();
    const span = getTracer().startSpan(`ollama.pull ${model}`, {
      kind: SpanKind.CLIENT,
      attributes: { [GEN_AI.PROVIDER_NAME]: GEN_AI_PROVIDER_OLLAMA, [GEN_AI.REQUEST_MODEL]: model, 'server.address': provider.host },
    });
    let lastStatus = '';
    let lastPercent = -PULL_EVENT_STEP_PERCENT;
    const record = (s: ModelPullStatus) => {
      const step = s.percent - lastPercent >= PULL_EVENT_STEP_PERCENT;
      if (s.status !== lastStatus || step || s.status === 'success' || s.status === 'error') {
        this.host.event(
          'model_pull',
          {
            model,
            host: provider.host,
            status: s.status,
            percent: s.percent,
            completedBytes: s.completedBytes,
            totalBytes: s.totalBytes,
            currentLayer: s.currentLayer ?? null,
            error: s.error ?? null,
          },
          span,
        );
        span.addEvent('model_pull', { status: s.status, percent: s.percent });
        lastStatus = s.status;
        if (step) lastPercent = s.percent;
      }
      onProgress?.(s);
    };
    try {
      await provider.pullModel(model, record);
      this.available$.invalidate();
      const final = provider.getPullStatus(model);
      span.setAttributes({ 'loupe.pull.status': 'success', 'loupe.pull.total_bytes': final?.totalBytes ?? 0 });
      return final;
    } catch (e) {
      span.setAttribute('loupe.pull.status', 'error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
      throw e;
    } finally {
      span.end();
    }
  }

  /** remove() for the API: 404 for a model the host does not have, 503 when it cannot delete. */
  async delete(model: string): Promise<{ deleted: string }> {
    const result = await this.remove(model);
    if (result.success) return { deleted: model };
    if (/not found|no such/i.test(result.error ?? '')) throw new NotFoundError(`${this.ollamaHost} has no model ${model}`);
    throw new UnavailableError(`Ollama at ${this.ollamaHost} could not delete ${model}: ${result.error}`);
  }

  async remove(model: string): Promise<{ success: boolean; error?: string }> {
    const provider = this.providers.default();
    const result = await provider.deleteModel(model);
    this.available$.invalidate();
    this.host.event('model_deleted', { model, host: provider.host, ...result });
    return result;
  }
}
