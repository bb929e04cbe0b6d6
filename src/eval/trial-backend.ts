// Where a trial's model replies come from: fresh stand-ins (the configured host and, for cloud
// routing, a "local" one) or the real Ollama at OLLAMA_HOST; plus synthetic slot holders.
import type { LoupeConfig } from '../config/loupe-config';
import type { LlmProvider } from '../provider/llm-provider';
import type { OllamaProviderFactory } from '../provider/ollama/ollama-provider.factory';
import { StandinServer } from '../standin/standin-server';
import type { Scenario } from './scenario/scenario';
import type { TriggerDocument } from './scenario/scenario-schema';
import { mergeCatalog } from './standin-catalog-merge';
import type { RecordedRequest } from './expectations/recorded-session';
import { requestsSeen } from './recorded-session-builder';

export interface TrialBackend {
  provider: LlmProvider;
  /** the hosts this trial owns (its stand-ins): their host-level events belong to the trial */
  ownHosts: string[];
  /** the chat requests the trial's stand-in received (what the model was sent); null against a real Ollama */
  requestsSeen(): RecordedRequest[] | null;
  /**
   * Occupies the scenario's slots. Each is released after its delay; a slot released on an event
   * is returned in `onEvent`, for the caller to release when the session records that event.
   */
  holdSlots(): Promise<Array<{ trigger: TriggerDocument; release: () => void }>>;
  close(): Promise<void>;
}

export async function prepareBackend(
  scenario: Scenario,
  config: LoupeConfig,
  providers: OllamaProviderFactory,
  options: { whenExhausted?: 'error' | 'repeat_last' } = {},
): Promise<TrialBackend> {
  const servers: StandinServer[] = [];
  const timers: NodeJS.Timeout[] = [];
  const unreleased: Array<() => void> = [];
  let host = config.ollama.host;
  let localHost: string | undefined;
  if (!host) {
    const catalog = scenario.defaultCatalog ? mergeCatalog(scenario.catalog) : (scenario.catalog ?? []);
    const main = new StandinServer({ catalog, script: { ...scenario.script, whenExhausted: options.whenExhausted } });
    servers.push(main);
    host = (await main.start(0)).url;
    if (scenario.localStandin) {
      // the local Ollama of a remote setup: exactly the models listed (typically cloud ones)
      const local = new StandinServer({
        catalog: scenario.localStandin.catalog ?? [],
        script: { ...scenario.script, whenExhausted: options.whenExhausted },
      });
      servers.push(local);
      localHost = (await local.start(0)).url;
    }
  }
  const provider = providers.forHost(host, {
    isolated: servers.length > 0,
    // with stand-ins, "local" is the second stand-in when there is one, else the main one itself
    overrides: { ...scenario.provider, ...(servers.length ? { localHost: localHost ?? host } : {}) },
  });
  return {
    provider,
    ownHosts: servers.length ? [provider.host] : [],
    requestsSeen: () => (servers.length ? requestsSeen(servers[0].requests) : null),
    holdSlots: async () => {
      const onEvent: Array<{ trigger: TriggerDocument; release: () => void }> = [];
      for (const h of scenario.holdSlots ?? []) {
        if (!(await provider.acquireSlot(h.model))) throw new Error(`setup could not hold a slot for ${h.model}`);
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          provider.releaseSlot(h.model);
        };
        if (h.releaseOn) onEvent.push({ trigger: h.releaseOn, release });
        else timers.push(setTimeout(release, h.releaseAfterMs));
        unreleased.push(release);
      }
      return onEvent;
    },
    close: async () => {
      timers.forEach(clearTimeout);
      // a holder whose event never came is released with the trial
      unreleased.forEach((release) => release());
      if (servers.length) providers.dispose(provider);
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}
