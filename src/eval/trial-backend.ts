// Where a trial's model replies come from: fresh stand-ins (the configured host and, for cloud
// routing, a "local" one) or the real Ollama at OLLAMA_HOST; plus synthetic slot holders.
import type { LoupeConfig } from '../config/loupe-config';
import type { OllamaProvider } from '../provider/ollama/ollama-provider';
import type { OllamaProviderFactory } from '../provider/ollama/ollama-provider.factory';
import { StandinServer } from '../standin/standin-server';
import type { Scenario } from './scenario/scenario';
import { mergeCatalog } from './standin-catalog-merge';

export interface TrialBackend {
  provider: OllamaProvider;
  /** occupies the scenario's slots; each is released after its delay */
  holdSlots(): Promise<void>;
  close(): Promise<void>;
}

export async function prepareBackend(scenario: Scenario, config: LoupeConfig, providers: OllamaProviderFactory): Promise<TrialBackend> {
  const servers: StandinServer[] = [];
  const timers: NodeJS.Timeout[] = [];
  const o = scenario.ollama ?? {};
  let host = config.ollama.host;
  let localHost: string | undefined;
  if (!host) {
    const catalog = scenario.defaultCatalog ? mergeCatalog(scenario.catalog) : scenario.catalog ?? [];
    const main = new StandinServer({ catalog, script: scenario.script });
    servers.push(main);
    host = (await main.start(0)).url;
    if (o.localStandin) {
      // the local Ollama of a remote setup: exactly the models listed (typically cloud ones)
      const local = new StandinServer({ catalog: o.localStandin.catalog ?? [], script: scenario.script });
      servers.push(local);
      localHost = (await local.start(0)).url;
    }
  }
  const provider = providers.forHost(host, {
    isolated: servers.length > 0,
    overrides: {
      ...(o.maxParallel !== undefined ? { maxParallel: o.maxParallel } : {}),
      ...(o.numGpu !== undefined ? { numGpu: o.numGpu } : {}),
      ...(o.firstByteTimeoutMs !== undefined ? { firstByteTimeoutMs: o.firstByteTimeoutMs } : {}),
      ...(o.idleTimeoutMs !== undefined ? { idleTimeoutMs: o.idleTimeoutMs } : {}),
      ...(o.requestTimeoutMs !== undefined ? { requestTimeoutMs: o.requestTimeoutMs } : {}),
      // with stand-ins, "local" is the second stand-in when there is one, else the main one itself
      ...(servers.length ? { localHost: localHost ?? host } : {}),
    },
  });
  return {
    provider,
    holdSlots: async () => {
      for (const h of scenario.holdSlots ?? []) {
        if (!(await provider.acquireSlot(h.model))) throw new Error(`setup could not hold a slot for ${h.model}`);
        timers.push(setTimeout(() => void provider.releaseSlot(h.model), h.releaseAfterMs));
      }
    },
    close: async () => {
      timers.forEach(clearTimeout);
      if (servers.length) provider.models.dispose();
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}
