// Model management on the configured Ollama host (OLLAMA_HOST, or the local default), recorded as
// host-level journal events and traced: list, running, pull with progress, delete.
import { Injectable } from '@nestjs/common';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { HostRecorder } from '../journal/host-recorder';
import { JournalService } from '../journal/journal.service';
import { GEN_AI, GEN_AI_PROVIDER_OLLAMA } from '../telemetry/gen-ai-attributes';
import { getTracer } from '../telemetry/telemetry';
import type { ModelDetail, RunningModel } from './ollama/ollama-models';
import { OllamaProviderFactory } from './ollama/ollama-provider.factory';
import type { ModelPullStatus } from './ollama/pull-tracker';

/** Progress is journaled on each new status and every this many percent, not on every line. */
const PULL_EVENT_STEP_PERCENT = 10;

@Injectable()
export class ModelsService {
  private readonly host: HostRecorder;

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

  running(): Promise<RunningModel[]> {
    return this.providers.default().getRunningModels();
  }

  isAvailable(): Promise<boolean> {
    return this.providers.default().isAvailable();
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

  async remove(model: string): Promise<{ success: boolean; error?: string }> {
    const provider = this.providers.default();
    const result = await provider.deleteModel(model);
    this.host.event('model_deleted', { model, host: provider.host, ...result });
    return result;
  }
}
