// The doctor's judgement, pure: what the facts read from a host mean for a Loupe run. Each check
// returns typed findings (ok / warn / fail with a message); the worst one decides the exit code.
import type { ToolCallingDecision } from '../model-family';
import type { CloudAccess, Finding, FindingLevel, ModelFacts, NumCtxSetting, ProbeResult } from './doctor-types';

const RANK: Record<FindingLevel, number> = { ok: 0, warn: 1, fail: 2 };

export function worstLevel(findings: readonly Finding[]): FindingLevel {
  return findings.reduce<FindingLevel>((worst, f) => (RANK[f.level] > RANK[worst] ? f.level : worst), 'ok');
}

/** The model's trained context: model_info `<arch>.context_length`, else `details.context_length` (newer servers). */
export function contextLengthFrom(show: { model_info?: unknown; details?: unknown } | null | undefined): number | null {
  const info = (show?.model_info ?? null) as Record<string, unknown> | null;
  const arch = info?.['general.architecture'];
  const fromInfo = typeof arch === 'string' ? info?.[`${arch}.context_length`] : undefined;
  if (typeof fromInfo === 'number' && fromInfo > 0) return fromInfo;
  const fromDetails = (show?.details as { context_length?: unknown } | undefined)?.context_length;
  return typeof fromDetails === 'number' && fromDetails > 0 ? fromDetails : null;
}

/** The num_ctx values Loupe would send: its default (or OLLAMA_NUM_CTX), and the one given with --num-ctx. */
export function numCtxSettings(configured: number | undefined, given: number | undefined, loupeDefault: number): NumCtxSetting[] {
  const base: NumCtxSetting =
    configured !== undefined ? { source: 'OLLAMA_NUM_CTX', value: configured } : { source: 'default', value: loupeDefault };
  return given !== undefined && given !== base.value ? [base, { source: '--num-ctx', value: given }] : [base];
}

export function judgeServer(input: {
  host: string;
  reachable: boolean;
  error?: string;
  version: string | null;
  standin: boolean;
}): Finding[] {
  const where = input.standin ? `stand-in at ${input.host} (OLLAMA_HOST is unset)` : `Ollama at ${input.host}`;
  if (!input.reachable) return [{ check: 'server', level: 'fail', message: `${where} is unreachable: ${input.error ?? 'no answer'}` }];
  if (!input.version) return [{ check: 'server', level: 'warn', message: `${where} answers, but not /api/version` }];
  return [{ check: 'server', level: 'ok', message: `${where}, version ${input.version}` }];
}

/** Models asked for with -m that the host does not list. */
export function judgeRequestedModels(requested: readonly string[], missing: readonly string[]): Finding[] {
  if (!requested.length) return [];
  return missing.map((m) => ({ check: 'models', level: 'fail' as const, message: `${m} is not installed on the host: pull it first` }));
}

export function judgeCapabilities(
  facts: Pick<ModelFacts, 'capabilities' | 'showError'>,
  decision: Pick<ToolCallingDecision, 'mode'>,
  named: boolean,
): Finding {
  if (!facts.capabilities)
    return { check: 'capabilities', level: 'warn', message: `unknown: /api/show failed${facts.showError ? ` (${facts.showError})` : ''}` };
  if (decision.mode === 'none')
    // an embedding model beside the chat models is normal; asked for by name it is a mistake
    return {
      check: 'capabilities',
      level: named ? 'fail' : 'warn',
      message: `${facts.capabilities.join(', ') || 'none'}: no completion capability, it cannot run a session`,
    };
  return { check: 'capabilities', level: 'ok', message: facts.capabilities.join(', ') };
}

const TOOL_MODE_REASONS: Record<ToolCallingDecision['reason'], string> = {
  native: 'the model has the tools capability',
  cloud: 'cloud models get tools as text',
  text_family: 'its family parses tool calls more reliably as text',
  no_tools_capability: 'no tools capability: tools are offered as text and parsed from its replies',
  no_completion_capability: 'it cannot chat',
};

export function judgeToolMode(decision: Pick<ToolCallingDecision, 'mode' | 'reason'>): Finding {
  const level: FindingLevel = decision.reason === 'no_tools_capability' ? 'warn' : 'ok';
  return { check: 'tool_mode', level, message: `${decision.mode}: ${TOOL_MODE_REASONS[decision.reason]}` };
}

/** Over the trained context Ollama caps num_ctx, so Loupe's budgets would count a window the model does not have. */
export function judgeNumCtx(settings: readonly NumCtxSetting[], contextLength: number | null): Finding[] {
  if (contextLength === null) return [{ check: 'num_ctx', level: 'warn', message: 'the model does not report its context length' }];
  return settings.map((s) =>
    s.value > contextLength
      ? {
          check: 'num_ctx',
          level: 'fail' as const,
          message: `${s.source} num_ctx ${s.value} exceeds the model's context length ${contextLength}: Ollama caps it and Loupe's context budgets would be wrong`,
        }
      : { check: 'num_ctx', level: 'ok' as const, message: `${s.source} num_ctx ${s.value} fits the context length ${contextLength}` },
  );
}

/**
 * A model heavier than the limit still runs (the SlotLimiter clamps its weight), one request at a
 * time: expected under the default serial limit, worth a warning when OLLAMA_MAX_PARALLEL set it.
 */
export function judgeSlots(slotWeight: number, slotLimit: { maxWeight: number; source: 'config' | 'gpu' | 'default' }): Finding {
  const { maxWeight, source } = slotLimit;
  if (slotWeight <= maxWeight)
    return { check: 'slots', level: 'ok', message: `weight ${slotWeight} of slot limit ${maxWeight} (${source})` };
  return {
    check: 'slots',
    level: source === 'config' ? 'warn' : 'ok',
    message: `weight ${slotWeight} over the slot limit ${maxWeight} (${source}): its requests run one at a time`,
  };
}

const ms = (v: number | null) => (v === null ? '-' : `${Math.round(v)} ms`);

export function judgeProbe(probe: ProbeResult | null, skippedBecause?: string): Finding {
  if (!probe) return { check: 'probe', level: 'ok', message: `skipped${skippedBecause ? ` (${skippedBecause})` : ''}` };
  if (!probe.ok) return { check: 'probe', level: 'fail', message: `one-turn chat failed: ${probe.error}` };
  const l = probe.latency;
  return {
    check: 'probe',
    level: 'ok',
    message: `first byte ${ms(l.ttfbMs)}, load ${ms(l.loadMs)}, prompt eval ${ms(l.promptEvalMs)}, eval ${ms(l.evalMs)}, total ${ms(l.totalMs ?? l.wallMs)}`,
  };
}

/** A cloud model runs only where the host is signed in to ollama.com (401 with signin_url otherwise). */
export function judgeCloudAccess(model: string, host: string, access: CloudAccess | null): Finding {
  if (!access) return { check: 'cloud', level: 'ok', message: 'sign-in not checked (--no-probe)' };
  if (access.ok) return { check: 'cloud', level: 'ok', message: `${host} is signed in to ollama.com` };
  if (access.status === 401)
    return {
      check: 'cloud',
      level: 'fail',
      message: `${host} is not signed in to ollama.com, so the cloud model ${model} cannot run: run \`ollama signin\` on that machine${access.signinUrl ? ` (or open ${access.signinUrl})` : ''}`,
    };
  if (access.status === 403)
    return { check: 'cloud', level: 'fail', message: `cloud models are disabled on ${host} (${access.error}): ${model} cannot run` };
  if (access.status === 429)
    return {
      check: 'cloud',
      level: 'warn',
      message: `ollama.com refuses ${model} for now (429: ${access.error}): trials may fail on quota`,
    };
  return { check: 'cloud', level: 'warn', message: `the sign-in check of ${model} failed: ${access.error}` };
}

const duration = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/**
 * keep_alive shorter than an approval wait: a session waiting that long finds its model unloaded
 * (Ollama unloads it keep_alive after the last request) and its next turn pays the load.
 */
export function judgeKeepAlive(keepAliveMs: number | null | undefined, approvalTimeoutMs: number): Finding {
  if (keepAliveMs === undefined)
    return { check: 'keep_alive', level: 'ok', message: 'not sent: the server keeps its own (5 min by default)' };
  if (keepAliveMs === null) return { check: 'keep_alive', level: 'ok', message: 'models stay loaded (negative keep_alive)' };
  if (keepAliveMs < approvalTimeoutMs)
    return {
      check: 'keep_alive',
      level: 'warn',
      message: `keep_alive ${duration(keepAliveMs)} is shorter than the approval timeout ${duration(approvalTimeoutMs)}: a session waiting on an approval that long finds its model unloaded and reloads it inside a measured turn (set OLLAMA_KEEP_ALIVE to at least ${duration(approvalTimeoutMs)})`,
    };
  return {
    check: 'keep_alive',
    level: 'ok',
    message: `keep_alive ${duration(keepAliveMs)} covers the approval timeout ${duration(approvalTimeoutMs)}`,
  };
}

/**
 * Whether the num_ctx values Loupe sends will make Ollama reload the model (any change of num_ctx
 * does, server/sched.go needsReload): several values mean one load each, and a model /api/ps shows
 * loaded at another context is reloaded by the first request. An eval warms each (model, num_ctx)
 * group before its trials, so these loads stay out of measured turns; other clients' sessions do not.
 */
export function judgeReloads(settings: readonly NumCtxSetting[], loadedContext: number | null, contextLength: number | null): Finding[] {
  const values = [...new Set(settings.map((s) => (contextLength ? Math.min(s.value, contextLength) : s.value)))];
  const findings: Finding[] = [];
  if (values.length > 1)
    findings.push({
      check: 'reloads',
      level: 'ok',
      message: `num_ctx ${values.join(', ')}: one load per value (an eval runs each value's trials together, warmed first)`,
    });
  if (loadedContext !== null && !values.includes(loadedContext))
    findings.push({
      check: 'reloads',
      level: 'warn',
      message: `loaded with context ${loadedContext} (/api/ps); num_ctx ${values.join(', ')} reloads it (an eval's warm-up does, before its trials; a session's first turn otherwise)`,
    });
  if (!findings.length)
    findings.push({
      check: 'reloads',
      level: 'ok',
      message: loadedContext === null ? `one load at num_ctx ${values[0]}` : `loaded at ${loadedContext}, as Loupe sends it: no reload`,
    });
  return findings;
}
