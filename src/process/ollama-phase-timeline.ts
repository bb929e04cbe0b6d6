// Ollama reports how long each phase of a call took, not when it happened: load (scheduling and
// model load), queue (waiting inside the runner: total − load − prompt eval − eval), prefill (prompt
// eval) and decode (eval), in that order. The last chunk arrives when decoding ends, so the phases are
// laid end to end backwards from the end of the call, never before its start. Pure; times are epoch
// nanoseconds (bigint), exact like the span times they are laid against.
import { OLLAMA_PHASES, type OllamaPhase } from '../telemetry/gen-ai-attributes';
import type { LlmTimings } from '../provider/llm-types';

export interface PhaseSpan {
  phase: OllamaPhase;
  startNs: bigint;
  endNs: bigint;
}

/**
 * The phases Ollama reported, in order. Load, prefill and decode appear whenever Ollama reported them
 * (a zero-length phase is still a fact: nothing to load); queue only when there was a wait.
 */
export function ollamaPhaseTimeline(callStartNs: bigint, callEndNs: bigint, t: LlmTimings): PhaseSpan[] {
  const durations: Record<OllamaPhase, number | undefined> = {
    load: t.loadMs,
    queue: t.serverQueueMs && t.serverQueueMs > 0 ? t.serverQueueMs : undefined,
    prefill: t.promptEvalMs,
    decode: t.evalMs,
  };
  const out: PhaseSpan[] = [];
  let end = callEndNs;
  for (const phase of [...OLLAMA_PHASES].reverse()) {
    const ms = durations[phase];
    if (ms === undefined || !Number.isFinite(ms) || ms < 0) continue;
    const wanted = end - BigInt(Math.round(ms * 1e6));
    const start = wanted < callStartNs ? callStartNs : wanted;
    out.unshift({ phase, startNs: start, endNs: end });
    end = start;
  }
  return out;
}
