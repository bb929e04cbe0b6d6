import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { LOUPE_CONFIG } from '../../config/config.module';
import type { LoupeConfig } from '../../config/loupe-config';
import { HostRecorder } from '../../journal/host-recorder';
import { JournalService } from '../../journal/journal.service';
import type { LlmProvider, ProviderEventSink } from '../llm-provider';
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
    keepAlive: c.keepAlive,
    thinkLevel: c.thinkLevel,
    reloadThresholdMs: c.reloadThresholdMs,
    slotWaitTimeoutMs: c.slotWaitTimeoutMs,
    retryDelayScale: c.retryDelayScale,
    toolCallExtraction: c.toolCallExtraction,
  };
}

const providerLogger = new Logger('OllamaProvider');

/** A provider for `host` as the configuration sets it, logging as 'OllamaProvider'. */
function newProvider(
  config: LoupeConfig,
  host: string,
  onHostEvent: ProviderEventSink,
  overrides: Partial<OllamaProviderOptions> = {},
): OllamaProvider {
  return new OllamaProvider({
    ...providerOptionsFrom(config.ollama, host),
    log: (level, m) => (level === 'warn' ? providerLogger.warn(m) : providerLogger.log(m)),
    onHostEvent,
    ...overrides,
  });
}

/**
 * The provider for a host, made before the application exists (the eval's warm-up while Postgres
 * starts) so that what it learns and loads is the run's: the factory adopts it. Its host events
 * are held until then (it emits none before a session releases a slot).
 */
export class EarlyProvider {
  readonly provider: OllamaProvider;
  private sink?: ProviderEventSink;
  private readonly held: Array<Parameters<ProviderEventSink>> = [];

  constructor(config: LoupeConfig, host: string) {
    this.provider = newProvider(config, host, (type, payload) =>
      this.sink ? this.sink(type, payload) : void this.held.push([type, payload]),
    );
  }

  connect(sink: ProviderEventSink): void {
    this.sink = sink;
    for (const [type, payload] of this.held.splice(0)) sink(type, payload);
  }

  /** Not adopted: its caches and timers end here. */
  dispose(): void {
    if (!this.sink) this.provider.models.dispose();
  }
}

/** One provider (and so one set of slot limiters) per Ollama host; stand-ins get their own. */
@Injectable()
export class OllamaProviderFactory implements OnModuleDestroy {
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
    const provider = newProvider(this.config, key, (type, payload) => this.host.event(type, payload), opts.isolated ? opts.overrides : {});
    if (opts.isolated) this.isolated.add(provider);
    else this.providers.set(key, provider);
    return provider;
  }

  /**
   * Takes an early provider as the one for its host, unless that host already has one (then it
   * is disposed and the existing one stays). Whether it was adopted.
   */
  adopt(early: EarlyProvider): boolean {
    const key = normalizeOllamaHost(early.provider.host);
    if (this.providers.has(key)) {
      early.dispose();
      return false;
    }
    this.providers.set(key, early.provider);
    early.connect((type, payload) => this.host.event(type, payload));
    return true;
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
