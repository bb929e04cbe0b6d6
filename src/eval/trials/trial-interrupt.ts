// A trial a signal stopped (Ctrl-C or SIGTERM to `loupe eval`): not judged — its session was cut
// short by Loupe, not by the model or the loop, so neither its expectations nor the invariants say
// anything about it. Recorded `interrupted` (its partial session kept) and rerun by `eval resume`.
import type { TrialResult } from '../eval-recorder';

/** Thrown inside a trial to leave it as interrupted (the signal came before its session started). */
export class TrialInterrupted extends Error {
  constructor(reason: string) {
    super(`interrupted by ${reason}`);
  }
}

/** The trial row of an interrupted trial: no verdict, no outcome. */
export function interruptedRow(
  reason: string,
  at: { sessionId: string | null; durationMs: number; metadata: Record<string, unknown> },
): TrialResult {
  return {
    sessionId: at.sessionId,
    status: 'interrupted',
    expectations: [],
    failedExpectations: [],
    iterations: 0,
    eventCount: 0,
    durationMs: at.durationMs,
    error: `interrupted by ${reason}`,
    metadata: at.metadata,
    outcome: null,
    invariantViolations: [],
  };
}
