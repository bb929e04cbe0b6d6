import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { LOUPE_CONFIG } from '../../config/config.module';
import type { LoupeConfig } from '../../config/loupe-config';
import { HostRecorder } from '../../journal/host-recorder';
import { JournalService } from '../../journal/journal.service';
import type { LlmProvider } from '../llm-provider';
import { normalizeOllamaHost } from './host-routing';
import { OllamaProvider, type OllamaProviderOptions } from './ollama-provider';

/** A provider's settings for `host` from the configuration (its logging and host events aside). */
export function providerOptionsFrom(c: LoupeConfig['ollama'], host: string): OllamaProviderOptions {
  return {
    host: normalizeOllamaHost(host),
    localHost: normalizeOllamaHost(c.localHost),
    requestTimeoutMs: c.requestTimeoutMs,
    idleTimeoutMs: c.idleTimeoutMs,
    firstByteTimeoutMs: c.firstByteTimeoutMs,
    maxParallel: c.maxParallel,
    numGpu: c.numGpu,
    numPredict: c.numPredict,
    numBatch: c.numBatch,
    slotWaitTimeoutMs: c.slotWaitTimeoutMs,
    retryDelayScale: c.retryDelayScale,
  };
}

/** One provider (and so one set of slot limiters) per Ollama host; stand-ins get their own. */
@Injectable()
export class OllamaProviderFactory implements OnModuleDestroy {
  private readonly logger = new Logger('OllamaProvider');
  private readonly providers = new Map<string, OllamaProvider>();
  private readonly isolated = new Set<OllamaProvider>();

  private readonly host: HostRecorder;

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    journal: JournalService,
  ) {
    this.host = new HostRecorder(journal);
  }

  /** `isolated`: a provider of its own (a trial's stand-in), with optional per-trial overrides. */
  forHost(host: string, opts: { isolated?: boolean; overrides?: Partial<OllamaProviderOptions> } = {}): OllamaProvider {
    const key = normalizeOllamaHost(host);
    if (!opts.isolated) {
      const existing = this.providers.get(key);
      if (existing) return existing;
    }
    const provider = new OllamaProvider({
      ...providerOptionsFrom(this.config.ollama, key),
      log: (level, m) => (level === 'warn' ? this.logger.warn(m) : this.logger.log(m)),
      onHostEvent: (type, payload) => this.host.event(type, payload),
      ...(opts.isolated ? opts.overrides : {}),
    });
    if (opts.isolated) this.isolated.add(provider);
    else this.providers.set(key, provider);
    return provider;
  }

  /** The provider for OLLAMA_HOST (the default local Ollama when unset). */
  default(): OllamaProvider {
    return this.forHost(this.config.ollama.host ?? this.config.ollama.localHost);
  }

  /** Ends an isolated provider (a trial's): its caches and timers go with it. */
  dispose(provider: LlmProvider): void {
    const p = provider as OllamaProvider;
    if (!this.isolated.delete(p)) return;
    p.models.dispose();
  }

  onModuleDestroy(): void {
    for (const p of [...this.providers.values(), ...this.isolated]) p.models.dispose();
  }
}
