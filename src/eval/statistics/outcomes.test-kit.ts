// Builders of trial outcomes for the statistics and report tests.
import type { TrialOutcome } from './statistics-types';

export function outcome(over: Partial<TrialOutcome> = {}): TrialOutcome {
  return {
    scenarioId: 's',
    model: 'm',
    configKey: '',
    trial: 1,
    status: 'passed',
    terminationReason: 'final_answer',
    pathologies: {},
    tokens: { input: 100, output: 10 },
    latency: { slotWaitMs: 0, loadMs: 0, serverQueueMs: 0, prefillMs: 0, decodeMs: 0, firstTokenMs: null, workingMs: 0 },
    iterations: 1,
    ...over,
  };
}

/**
 * Trials of one cell from a status string, one letter per trial in trial order:
 * P passed, F failed, U unjudged, E error (`cell('s', 'm', '', 'PPF')`).
 */
export function cell(scenarioId: string, model: string, configKey: string, statuses: string): TrialOutcome[] {
  const of = { P: 'passed', F: 'failed', U: 'unjudged', E: 'error' } as const;
  return [...statuses].map((ch, i) => outcome({ scenarioId, model, configKey, trial: i + 1, status: of[ch as keyof typeof of] }));
}
