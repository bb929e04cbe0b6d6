// What a trial contributes to the statistics, read off its recorded session: pathologies counted by
// kind, tokens, and the latency split (Loupe's slot wait; Ollama's load, queue, prefill, decode;
// time to first token; working time, approval waits excluded).
import type { RecordedSession } from '../expectations/recorded-session';
import type { PathologyKey, TrialLatency, TrialOutcome } from '../statistics/statistics-types';

const BREAK_KINDS = [
  'repeat_break',
  'same_tool_break',
  'cycle_break',
  'error_repeat_break',
  'content_loop_break',
  'max_iterations',
] as const;
const REPAIRS = ['tool_name_repaired', 'tool_args_normalized', 'tool_args_coerced', 'tool_call_dropped'] as const;

export function pathologiesOf(session: RecordedSession, invariantViolations: number): Partial<Record<PathologyKey, number>> {
  const counts: Partial<Record<PathologyKey, number>> = {};
  const add = (key: PathologyKey, n = 1) => {
    if (n > 0) counts[key] = (counts[key] ?? 0) + n;
  };
  for (const e of session.events) {
    if ((BREAK_KINDS as readonly string[]).includes(e.type)) add(e.type as PathologyKey);
    else if (e.type === 'nudge') add(e.payload.exhausted ? 'nudges_exhausted' : (`nudge.${String(e.payload.reason)}` as PathologyKey));
    else if (e.type === 'mid_chain_nudge' && !e.payload.exhausted) add('mid_chain_nudge');
    else if (e.type === 'mid_chain_nudge') add('nudges_exhausted');
    else if (e.type === 'hallucination_stripped') add('hallucination_stripped');
    else if ((REPAIRS as readonly string[]).includes(e.type)) add(`repair.${e.type}` as PathologyKey);
    else if (e.type === 'context_overflow') add('context_overflow');
    else if (e.type === 'approval_requested' && e.payload.name === 'doom_loop') add('doom_loop_asked');
    // a reload inside a measured turn (a warm-up's load is not measured): the run's timings paid a load
    else if (e.type === 'model_reloaded' && e.payload.measured === true) add('model_reloaded');
  }
  add('invariant_violation', invariantViolations);
  return counts;
}

const sum = (xs: Array<number | null>) => xs.reduce<number>((a, x) => a + (x ?? 0), 0);

export function latencyOf(session: RecordedSession): TrialLatency {
  const rows = session.iterationRows;
  const event = (type: string) => session.events.find((e) => e.type === type)?.payload;
  const finished = event('session_finished');
  return {
    slotWaitMs: Number(event('slot_acquired')?.waitMs ?? 0),
    loadMs: sum(rows.map((r) => r.loadMs)),
    serverQueueMs: sum(rows.map((r) => r.serverQueueMs)),
    prefillMs: sum(rows.map((r) => r.prefillMs)),
    decodeMs: sum(rows.map((r) => r.decodeMs)),
    firstTokenMs: rows.find((r) => r.firstTokenMs !== null)?.firstTokenMs ?? null,
    workingMs: Number(finished?.workingMs ?? 0),
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
