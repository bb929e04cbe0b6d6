// The doctor's judgement, pure: what the facts read from a host mean for a Loupe run. Each check
// returns typed findings (ok / warn / fail with a message); the worst one decides the exit code.
import type { ToolCallingDecision } from '../model-family';
import type { Finding, FindingLevel, ModelFacts, NumCtxSetting, ProbeResult } from './doctor-types';

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
