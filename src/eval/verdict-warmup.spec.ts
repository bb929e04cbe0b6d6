import { trace } from '@opentelemetry/api';
import { SessionRecorder } from '../journal/session-recorder';
import { judgedWarmup } from './verdict-warmup';

// The passing path (a real warm-up session, judged) is covered by test/eval/trial-warmup.spec.ts:
// there a round reports 'completed' only when its verdict passed. Here: a verdict that fails says so.
describe('judgedWarmup', () => {
  const span = trace.getTracer('test').startSpan('warmup');

  it('says a session it never saw was not recorded', () => {
    expect(judgedWarmup('s-1').judge('The files are listed.', { answerContains: 'listed', toolCalls: 1 })).toBe('not recorded');
  });

  it("judges the ledger's session as a trial: a missing tool call fails it, and the reason names the expectation", () => {
    const judged = judgedWarmup('s-2');
    const recorder = new SessionRecorder(
      judged,
      {
        id: 's-2',
        pid: 1,
        agent: 'loupe',
        model: 'm',
        prompt: 'List the files.',
        councilRole: null,
        trialId: null,
        workspace: null,
        config: {},
      },
      span,
    );
    recorder.message({
      role: 'assistant',
      kind: 'assistant',
      content: 'No.',
      toolCalls: null,
      toolCallId: null,
      toolName: null,
      thinking: null,
      iteration: 0,
    });
    recorder.event('session_finished', {
      reason: 'completed',
      exitCode: 0,
      iterations: 0,
      inferences: 0,
      toolCalls: 0,
      nudges: 0,
      midChainNudges: 0,
      finalAnswerChars: 3,
      approvalWaitMs: 0,
      workingMs: 1,
    });
    recorder.finish({ terminationReason: 'completed', exitCode: 0 });
    const verdict = judged.judge('No.', { answerContains: 'listed', toolCalls: 1 });
    expect(verdict).toMatch(/^judged failed: /);
    expect(verdict).toContain('tool calls 1');
  });
});
