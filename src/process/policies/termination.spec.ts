import { TERMINATION_REASONS, buildEpilogueRequest, needsSummaryEpilogue } from './termination';
import type { TerminationReason } from './termination';

describe('needsSummaryEpilogue', () => {
  it.each<[TerminationReason, boolean]>([
    ['repeat_break', true],
    ['same_tool_break', true],
    ['cycle_break', true],
    ['error_repeat_break', true],
    ['content_loop_break', true],
    ['max_iterations', true],
    ['completed', false],
    ['nudges_exhausted', false],
    ['aborted', false],
    ['provider_error', false],
    ['context_overflow', false],
    ['slot_timeout', false],
    ['interrupted', false],
    ['permission_rejected', false],
    ['expired', false],
  ])('%s → %s', (reason, expected) => {
    expect(needsSummaryEpilogue(reason)).toBe(expected);
  });

  it('never runs under a profile without an epilogue (opencode, dexto, the MCP agent, gemini-cli)', () => {
    expect(needsSummaryEpilogue('repeat_break', 'none')).toBe(false);
    expect(needsSummaryEpilogue('repeat_break', 'summary')).toBe(true);
  });

  it('covers every termination reason in the table above', () => {
    expect([...TERMINATION_REASONS].sort()).toEqual([
      'aborted',
      'completed',
      'content_loop_break',
      'context_overflow',
      'cycle_break',
      'error_repeat_break',
      'expired',
      'interrupted',
      'max_iterations',
      'nudges_exhausted',
      'permission_rejected',
      'provider_error',
      'repeat_break',
      'same_tool_break',
      'slot_timeout',
    ]);
  });
});

describe('buildEpilogueRequest', () => {
  it.each<[TerminationReason, string]>([
    ['repeat_break', 'you repeated the same tool call several times in a row'],
    ['same_tool_break', 'you called the same tool many times in a row'],
    ['cycle_break', 'you kept repeating the same sequence of tool calls'],
    ['error_repeat_break', 'the same tool call kept failing with the same error'],
    ['max_iterations', 'the maximum number of steps was reached'],
  ])('asks for a tools-disabled summary after %s', (reason, why) => {
    expect(buildEpilogueRequest(reason)).toEqual({
      toolsEnabled: false,
      content:
        `The session is stopping because ${why}. Tools are now disabled. Summarize what you accomplished, ` +
        'what remains unfinished, and what you would do next. Respond with text only.',
    });
  });

  it.each<TerminationReason>(['completed', 'aborted', 'provider_error', 'context_overflow', 'nudges_exhausted'])(
    'requests nothing after %s',
    (reason) => {
      expect(buildEpilogueRequest(reason)).toBeNull();
    },
  );
});
