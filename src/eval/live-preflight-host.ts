// The reads behind a live eval's preflight (live-preflight.ts judges them): the listing of each host
// the run's models are served by, /api/show of each planned model, and a cloud model's sign-in. The
// doctor's own reads (doctor-host.ts); no model is loaded.
import type { LoupeConfig } from '../config/loupe-config';
import { probeCloudAccess, readHost, readModelFacts } from '../provider/ollama/doctor/doctor-host';
import { hostForModel, normalizeOllamaHost } from '../provider/ollama/host-routing';
import { canonicalModelName, isCloudModel } from '../provider/ollama/model-name';
import { judgePreflight, plannedUses, type HostPreflight, type ModelPreflight, type PreflightVerdict } from './live-preflight';
import type { Job } from './run-plan';

export async function livePreflight(
  ollama: Pick<LoupeConfig['ollama'], 'host' | 'localHost' | 'numCtx'>,
  jobs: ReadonlyArray<Pick<Job, 'scenario' | 'config' | 'model'>>,
): Promise<PreflightVerdict> {
  const uses = plannedUses(jobs, ollama.numCtx);
  const routes = uses.map((u) => ({ model: u.model, host: hostForModel(u.model, ollama.host!, ollama.localHost).host }));
  const hostNames = [...new Set([normalizeOllamaHost(ollama.host), ...routes.map((r) => r.host)])];
  const listings = new Map(await Promise.all(hostNames.map(async (h) => [h, await readHost(h)] as const)));
  const hosts: HostPreflight[] = hostNames.map((h) => {
    const l = listings.get(h)!;
    return l.ok ? { host: h, reachable: true } : { host: h, reachable: false, error: l.error };
  });
  if (hosts.some((h) => !h.reachable)) return judgePreflight(hosts, uses, []);
  const models: ModelPreflight[] = await Promise.all(
    routes.map(async ({ model, host }) => {
      const listing = listings.get(host)!;
      const listed = listing.ok ? listing.models.find((m) => canonicalModelName(m.name) === canonicalModelName(model)) : undefined;
      if (!listed) return { model, host, facts: null };
      const [facts, cloud] = await Promise.all([
        readModelFacts(host, listed),
        isCloudModel(model) ? probeCloudAccess(host, model) : Promise.resolve(undefined),
      ]);
      return { model, host, facts, ...(cloud ? { cloud } : {}) };
    }),
  );
  return judgePreflight(hosts, uses, models);
}
