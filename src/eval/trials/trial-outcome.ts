// What a trial contributes to the statistics, read off its recorded session: pathologies counted by
// kind, tokens, and the latency split (Loupe's slot wait; Ollama's load, queue, prefill, decode;
// time to first token; working time, approval waits excluded).
import {
  LOOP_BREAK_KINDS,
  REPAIR_EVENTS,
  pathologyOfNudge,
  pathologyOfRepair,
  type PathologyKey,
} from '../../journal/events/loop-vocabulary';
import { eventsOfType } from '../../journal/journal-events';
import type { RecordedSession } from '../expectations/recorded-session';
import type { TrialLatency, TrialOutcome } from '../statistics/statistics-types';

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

export function pathologiesOf(session: RecordedSession, invariantViolations: number): Partial<Record<PathologyKey, number>> {
  const counts: Partial<Record<PathologyKey, number>> = {};
  const add = (key: PathologyKey, n = 1) => {
    if (n > 0) counts[key] = (counts[key] ?? 0) + n;
  };
  for (const e of session.events) {
    if (isOneOf(LOOP_BREAK_KINDS, e.type)) add(e.type);
    else if (isOneOf(REPAIR_EVENTS, e.type)) add(pathologyOfRepair(e.type));
    else if (e.type === 'nudge') add(e.payload.exhausted ? 'nudges_exhausted' : pathologyOfNudge(e.payload.reason));
    else if (e.type === 'mid_chain_nudge') add(e.payload.exhausted ? 'nudges_exhausted' : 'mid_chain_nudge');
    else if (e.type === 'hallucination_stripped') add('hallucination_stripped');
    else if (e.type === 'context_overflow') add('context_overflow');
    else if (e.type === 'approval_requested' && e.payload.name === 'doom_loop') add('doom_loop_asked');
    // a reload inside a measured turn (a warm-up's load is not measured): the run's timings paid a load
    else if (e.type === 'model_reloaded' && e.payload.measured) add('model_reloaded');
  }
  add('invariant_violation', invariantViolations);
  return counts;
}

const sum = (xs: Array<number | null>) => xs.reduce<number>((a, x) => a + (x ?? 0), 0);

export function latencyOf(session: RecordedSession): TrialLatency {
  const rows = session.iterationRows;
  const finished = eventsOfType(session.events, 'session_finished')[0]?.payload;
  return {
    slotWaitMs: eventsOfType(session.events, 'slot_acquired')[0]?.payload.waitMs ?? 0,
    loadMs: sum(rows.map((r) => r.loadMs)),
    serverQueueMs: sum(rows.map((r) => r.serverQueueMs)),
    prefillMs: sum(rows.map((r) => r.prefillMs)),
    decodeMs: sum(rows.map((r) => r.decodeMs)),
    firstTokenMs: rows.find((r) => r.firstTokenMs !== null)?.firstTokenMs ?? null,
    workingMs: finished?.workingMs ?? 0,
  };
}

export function tokensOf(session: RecordedSession): TrialOutcome['tokens'] {
  return { input: sum(session.iterationRows.map((r) => r.inputTokens)), output: sum(session.iterationRows.map((r) => r.outputTokens)) };
}

/** The outcome of a judged trial of this cell (scenario, model, configuration, trial), as the statistics take it. */
export function judgedOutcome(
  cell: Pick<TrialOutcome, 'scenarioId' | 'model' | 'configKey' | 'trial'>,
  session: RecordedSession,
  verdict: { status: TrialOutcome['status']; violations: readonly unknown[] },
): TrialOutcome {
  return {
    ...cell,
    status: verdict.status,
    terminationReason: session.terminationReason,
    iterations: session.iterations,
    pathologies: pathologiesOf(session, verdict.violations.length),
    tokens: tokensOf(session),
    latency: latencyOf(session),
  };
}
