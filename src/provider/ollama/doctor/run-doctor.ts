// `loupe doctor` and GET /api/doctor: reads the host (doctor-host.ts), asks the provider's own
// decisions (tool mode, think, slot weight and limit) and judges each model (doctor-judgement.ts).
// Framework-free: the CLI runs it without the application (no database needed to diagnose a host).
import { thinkParam, toolCallingDecision } from '../model-family';
import { canonicalModelName } from '../model-name';
import { resolveModelWeight } from '../model-weight';
import { detectGpu, resolveMaxWeight, shouldDetectGpu } from '../gpu-tier';
import { isCloudModel } from '../model-name';
import { probeChat, probeCloudAccess, readHost, readLoadedContexts, readModelFacts, readRunning } from './doctor-host';
import {
  judgeCapabilities,
  judgeCloudAccess,
  judgeKeepAlive,
  judgeReloads,
  judgeNumCtx,
  judgeProbe,
  judgeRequestedModels,
  judgeServer,
  judgeSlots,
  judgeToolMode,
  worstLevel,
} from './doctor-judgement';
import type { DoctorReport, ModelFacts, ModelReport, NumCtxSetting } from './doctor-types';

export interface DoctorOptions {
  host: string;
  /** the host is a stand-in started for the check (OLLAMA_HOST unset) */
  standin: boolean;
  /** limit to these models (as named with -m); empty: every listed model */
  models: string[];
  probe: boolean;
  numCtx: NumCtxSetting[];
  /** OLLAMA_MAX_PARALLEL and OLLAMA_NUM_GPU, as the provider reads them */
  maxParallel?: number;
  numGpu?: number;
  probeTimeoutMs?: number;
  /** the keep_alive Loupe sends (ms; null = forever; undefined = not sent) and the approval wait it must cover */
  keepAliveMs?: number | null;
  approvalTimeoutMs?: number;
}

export async function runDoctor(opts: DoctorOptions): Promise<DoctorReport> {
  const listing = await readHost(opts.host);
  const config = { maxParallel: opts.maxParallel, numGpu: opts.numGpu };
  const serverFindings = judgeServer({
    host: opts.host,
    standin: opts.standin,
    reachable: listing.ok,
    error: listing.ok ? undefined : listing.error,
    version: listing.ok ? listing.version : null,
  });
  const base = { host: opts.host, standin: opts.standin, numCtx: opts.numCtx };
  if (!listing.ok)
    return {
      ...base,
      reachable: false,
      version: null,
      slotLimit: resolveMaxWeight(config),
      findings: serverFindings,
      models: [],
      level: 'fail',
    };

  const detection = shouldDetectGpu(config) ? detectGpu(await readRunning(opts.host)) : null;
  const slotLimit = resolveMaxWeight(config, detection);
  const wanted = new Set(opts.models.map(canonicalModelName));
  const chosen = wanted.size ? listing.models.filter((m) => wanted.has(canonicalModelName(m.name))) : listing.models;
  const listedNames = new Set(listing.models.map((m) => canonicalModelName(m.name)));
  const missing = opts.models.filter((m) => !listedNames.has(canonicalModelName(m)));
  const findings = [...serverFindings, ...judgeRequestedModels(opts.models, missing)];
  if (opts.approvalTimeoutMs !== undefined) findings.push(judgeKeepAlive(opts.keepAliveMs, opts.approvalTimeoutMs));
  // before any probe loads a model: what is loaded now, and at which context
  const loaded = await readLoadedContexts(opts.host);
  if (!chosen.length && !missing.length)
    findings.push({ check: 'models', level: 'warn', message: 'the host lists no models: pull one first' });

  const models: ModelReport[] = [];
  // one model at a time: probes that load models side by side would time each other's evictions
  for (const listed of chosen) {
    const facts = await readModelFacts(opts.host, listed);
    models.push(await diagnose(facts, opts, slotLimit, wanted.size > 0, loaded.get(canonicalModelName(facts.model)) ?? null));
  }
  const level = worstLevel([...findings, ...models.flatMap((m) => m.findings)]);
  return { ...base, reachable: true, version: listing.version, slotLimit, findings, models, level };
}

async function diagnose(
  facts: ModelFacts,
  opts: DoctorOptions,
  slotLimit: DoctorReport['slotLimit'],
  named: boolean,
  loadedContext: number | null,
): Promise<ModelReport> {
  const details = { family: facts.family ?? undefined, parameter_size: facts.parameterSize ?? undefined };
  const decision = toolCallingDecision(facts.model, details, facts.capabilities);
  const slotWeight = resolveModelWeight({
    model: facts.model,
    parameterSize: facts.parameterSize ?? undefined,
    maxWeight: slotLimit.maxWeight,
  }).weight;
  const canChat = decision.mode !== 'none';
  const cloud = isCloudModel(facts.model) ? (opts.probe ? await probeCloudAccess(opts.host, facts.model) : null) : undefined;
  // a cloud model the host cannot reach is said once (the cloud finding), not again by a failed probe
  const probe =
    opts.probe && canChat && (cloud === undefined || cloud?.ok)
      ? await probeChat(opts.host, {
          model: facts.model,
          // the num_ctx a run would send (the given one when there is one), so the load is the run's
          numCtx: opts.numCtx[opts.numCtx.length - 1].value,
          think: thinkParam(facts.model, details, facts.capabilities),
          timeoutMs: opts.probeTimeoutMs,
        })
      : null;
  const findings = [
    judgeCapabilities(facts, decision, named),
    judgeToolMode(decision),
    ...judgeNumCtx(opts.numCtx, facts.contextLength),
    ...(cloud === undefined
      ? judgeReloads(opts.numCtx, loadedContext, facts.contextLength)
      : [judgeCloudAccess(facts.model, opts.host, cloud)]),
    judgeSlots(slotWeight, slotLimit),
    judgeProbe(probe, !opts.probe ? '--no-probe' : !canChat ? 'it cannot chat' : cloud && !cloud.ok ? 'no ollama.com access' : undefined),
  ];
  return {
    ...facts,
    toolMode: { mode: decision.mode, reason: decision.reason },
    slotWeight,
    ...(cloud === undefined ? { loadedContext } : { cloud }),
    probe,
    findings,
  };
}
