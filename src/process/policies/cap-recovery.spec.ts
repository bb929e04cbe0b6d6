import { GRACE_TURN_MESSAGE, judgeGraceTurn, planGraceTurn } from './cap-recovery';

const gemini = { capRecovery: 'grace_turn' as const, graceTurnMs: 60_000 };

describe('planGraceTurn', () => {
  it('gives gemini-cli one grace turn of graceTurnMs at the iteration cap', () => {
    expect(planGraceTurn('max_iterations', gemini)).toEqual({ timeoutMs: 60_000, message: GRACE_TURN_MESSAGE });
  });

  it('tells the model why, that it must answer now, and not to call tools', () => {
    expect(GRACE_TURN_MESSAGE).toMatch(/exceeded the maximum number of turns/);
    expect(GRACE_TURN_MESSAGE).toMatch(/one final chance/);
    expect(GRACE_TURN_MESSAGE).toMatch(/Do not call any tools/);
  });

  it.each(['completed', 'repeat_break', 'content_loop_break', 'aborted', 'provider_error', 'nudges_exhausted'] as const)(
    'gives none after %s (only the cap is recovered from)',
    (reason) => expect(planGraceTurn(reason, gemini)).toBeNull(),
  );

  it('gives none under a profile without it, or with no time for it', () => {
    expect(planGraceTurn('max_iterations', { capRecovery: 'none', graceTurnMs: 60_000 })).toBeNull();
    expect(planGraceTurn('max_iterations', { capRecovery: 'grace_turn', graceTurnMs: 0 })).toBeNull();
  });
});

describe('judgeGraceTurn', () => {
  it('recovers on a text answer without tool calls', () => {
    expect(judgeGraceTurn({ kind: 'reply', content: 'Done: a and b.', toolCalls: [] })).toEqual({
      recovered: true,
      finalAnswer: 'Done: a and b.',
    });
  });

  it('does not recover when the model calls tools anyway, answers nothing, runs out of time or fails', () => {
    expect(judgeGraceTurn({ kind: 'reply', content: 'one more', toolCalls: [{ id: 'c', name: 'read_file', arguments: {} }] })).toEqual({
      recovered: false,
      why: 'called_tools',
    });
    expect(judgeGraceTurn({ kind: 'reply', content: '  \n', toolCalls: [] })).toEqual({ recovered: false, why: 'empty' });
    expect(judgeGraceTurn({ kind: 'timed_out' })).toEqual({ recovered: false, why: 'timed_out' });
    expect(judgeGraceTurn({ kind: 'failed', message: 'boom' })).toEqual({ recovered: false, why: 'failed' });
  });
});
