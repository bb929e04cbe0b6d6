// The other half of a trial's first-time cost: judging it. A warm-up session's journal entries go to
// a ledger (in memory, written nowhere) and the session is judged the way a trial is — expectations
// and success criteria, the invariants, the outcome's figures — then summarised as a run's
// statistics are. The run's first verdicts (one lands on the first hand-off of slots) and its final
// statistics then run compiled code instead of compiling it on the run's clock.
import type { JournalEntry } from '../journal/journal-entry';
import { SessionLedger } from '../journal/session-ledger';
import { recordedSession } from './recorded-session-builder';
import type { Expectation } from './scenario/scenario-schema';
import { summarizeAll } from './statistics/summarize';
import { judgedOutcome } from './trials/trial-outcome';
import { judgeTrial } from './trials/trial-verdict';

export interface JudgedWarmup {
  /** the journal sink of the warm-up session */
  append(entry: JournalEntry): void;
  /**
   * The session judged as a scripted trial and as a live one (both must pass), and summarised;
   * 'passed', or what failed.
   */
  judge(finalAnswer: string, expected: { answerContains: string; toolCalls: number }): string;
}

export function judgedWarmup(sessionId: string): JudgedWarmup {
  const ledger = new SessionLedger(sessionId);
  return {
    append: (entry) => ledger.apply(entry),
    judge(finalAnswer, expected) {
      const detail = ledger.detail();
      if (!detail) return 'not recorded';
      const session = recordedSession(detail, { finalAnswer, files: {}, hostEvents: [], requests: null });
      const expect: Expectation[] = [{ termination: 'completed' }, { tool_calls: expected.toolCalls }];
      const success: Expectation[] = [{ final_answer: { contains: expected.answerContains } }];
      const scripted = judgeTrial(session, { expect, success }, 'scripted');
      const live = judgeTrial(session, { expect, success }, 'live', { realModel: true });
      const outcomes = [scripted, live].map((v, i) =>
        judgedOutcome({ scenarioId: 'warmup', model: 'warmup', configKey: '', trial: i + 1 }, session, v),
      );
      const summary = summarizeAll(outcomes, { ks: [1, 2] });
      const failed = [scripted, live].find((v) => v.status !== 'passed');
      if (failed)
        return `judged ${failed.status}: ${failed.error ?? [...failed.failed.map((c) => c.expectation), ...failed.violations.map((v) => v.invariant)].join('; ')}`;
      return summary.run.passed === 2 ? 'passed' : `summarised ${summary.run.passed} of 2 passed`;
    },
  };
}
