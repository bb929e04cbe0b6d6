// Where a trial's model replies come from: fresh stand-ins replaying the scenario's script (the
// configured host and, for cloud routing, a "local" one), the real Ollama at OLLAMA_HOST, or fresh
// stand-ins serving a recorded trial; with recording on, a recorder (proxy) in front of each. Plus
// synthetic slot holders.
import type { LoupeConfig } from '../../config/loupe-config';
import type { LlmProvider } from '../../provider/llm-provider';
import { isSameOllamaHost } from '../../provider/ollama/host-routing';
import type { OllamaProviderFactory } from '../../provider/ollama/ollama-provider.factory';
import { StandinServer } from '../../standin/standin-server';
import type { Scenario } from '../scenario/scenario';
import type { TriggerDocument } from '../scenario/scenario-schema';
import { mergeCatalog } from '../standin-catalog-merge';
import type { RecordedRequest } from '../expectations/recorded-session';
import { requestsSeen } from '../recorded-session-builder';
import type { CapturedExchange, Upstream } from '../recording/exchange';
import { RecordingProxy } from '../recording/recording-proxy';
import { SharedSlotsProvider } from '../recording/shared-slots-provider';
import type { TrialReplay } from '../recording/trial-replay';
import type { SimBackend } from '../sim-models';

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

export interface BackendOptions {
  whenExhausted?: 'error' | 'repeat_last';
  /** a real Ollama (live runs); unset: stand-ins */
  liveHost?: string;
  /** serve this recorded trial instead of the script */
  replay?: TrialReplay;
  /** record every exchange (a proxy in front of each upstream) */
  record?: (exchange: CapturedExchange) => void;
  /** the replayed run ran against a real Ollama: the provider runs as it did then, without the scenario's `ollama:` settings */
  replayOfLive?: boolean;
  /** a simulated model (`sim:<persona>`): the main stand-in serves it from its persona, following the plan */
  sim?: SimBackend;
}

export async function prepareBackend(
  scenario: Scenario,
  config: LoupeConfig,
  providers: OllamaProviderFactory,
  options: BackendOptions = {},
): Promise<TrialBackend> {
  const servers: StandinServer[] = [];
  const proxies: RecordingProxy[] = [];
  const timers: NodeJS.Timeout[] = [];
  const unreleased: Array<() => void> = [];
  const live = !options.replay && options.liveHost;
  let host: string;
  let localHost: string | undefined;
  if (live) {
    host = options.liveHost!;
    if (options.record && !isSameOllamaHost(host, config.ollama.localHost)) localHost = config.ollama.localHost;
  } else {
    const standin = async (upstream: Upstream, catalog: StandinServer['catalog']) => {
      const server = options.replay
        ? new StandinServer({ replay: options.replay.sourceFor(upstream) })
        : new StandinServer({
            ...(upstream === 'main' ? scenario.standin : undefined),
            catalog: [...catalog],
            script: { ...scenario.script, whenExhausted: options.whenExhausted },
            ...(upstream === 'main' && options.sim ? simServing(options.sim, scenario, config) : {}),
          });
      servers.push(server);
      return (await server.start(0)).url;
    };
    host = await standin('main', scenario.defaultCatalog ? mergeCatalog(scenario.catalog) : (scenario.catalog ?? []));
    // the local Ollama of a remote setup: exactly the models listed (typically cloud ones)
    if (scenario.localStandin || options.replay?.uses('local')) localHost = await standin('local', scenario.localStandin?.catalog ?? []);
  }
  if (options.record) {
    const recorder = async (base: string, upstream: Upstream) => {
      const proxy = new RecordingProxy(base, upstream, options.record!);
      proxies.push(proxy);
      return proxy.start();
    };
    host = await recorder(host, 'main');
    if (localHost) localHost = await recorder(localHost, 'local');
  }
  const isolated = servers.length > 0 || proxies.length > 0;
  const own = providers.forHost(host, {
    isolated,
    // with stand-ins, "local" is the second stand-in when there is one, else the main one itself
    overrides: { ...(live || options.replayOfLive ? {} : scenario.provider), ...(isolated ? { localHost: localHost ?? host } : {}) },
  });
  // a recorded live trial still queues for slots with every other trial of the run
  const provider = live && isolated ? new SharedSlotsProvider(own, providers.forHost(options.liveHost!)) : own;
  return {
    provider,
    ownHosts: servers.length ? [own.host] : [],
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
      if (isolated) providers.dispose(own);
      await Promise.all(servers.map((s) => s.stop()));
      await Promise.all(proxies.map((p) => p.stop()));
    },
  };
}

/** A persona on the stand-in, on its clock scaled by LOUPE_SIM_TIME_SCALE (times the scenario's own `standin.time_scale`). */
function simServing(sim: SimBackend, scenario: Scenario, config: LoupeConfig) {
  return {
    sim: { [sim.model]: { persona: sim.persona, plan: sim.plan } },
    timeScale: (scenario.standin?.timeScale ?? 1) * config.sim.timeScale,
  };
}
