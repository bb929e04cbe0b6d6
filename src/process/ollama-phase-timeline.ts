// Ollama reports how long each phase of a call took, not when it happened: load (scheduling and
// model load), queue (waiting inside the runner: total − load − prompt eval − eval), prefill (prompt
// eval) and decode (eval), in that order. The last chunk arrives when decoding ends, so the phases are
// laid end to end backwards from the end of the call, never before its start. Pure.
import { OLLAMA_PHASES, type OllamaPhase } from '../telemetry/gen-ai-attributes';
import type { LlmTimings } from '../provider/llm-types';

export interface PhaseSpan {
  phase: OllamaPhase;
  /** epoch milliseconds (fractional) */
  startMs: number;
  endMs: number;
}

/**
 * The phases Ollama reported, in order. Load, prefill and decode appear whenever Ollama reported them
 * (a zero-length phase is still a fact: nothing to load); queue only when there was a wait.
 */
export function ollamaPhaseTimeline(callStartMs: number, callEndMs: number, t: LlmTimings): PhaseSpan[] {
  const durations: Record<OllamaPhase, number | undefined> = {
    load: t.loadMs,
    queue: t.serverQueueMs && t.serverQueueMs > 0 ? t.serverQueueMs : undefined,
    prefill: t.promptEvalMs,
    decode: t.evalMs,
  };
  const out: PhaseSpan[] = [];
  let end = callEndMs;
  for (const phase of [...OLLAMA_PHASES].reverse()) {
    const ms = durations[phase];
    if (ms === undefined || !Number.isFinite(ms) || ms < 0) continue;
    const start = Math.max(callStartMs, end - ms);
    out.unshift({ phase, startMs: start, endMs: end });
    end = start;
  }
  return out;
}
