import { recordedEvents } from './recorded-events.test-kit';
import type { Expectation } from '../scenario/scenario-schema';
import { evaluateExpectations, payloadMatches } from './evaluate-expectations';
import type { RecordedSession } from './recorded-session';
import { RegexBudgetError, regexTest } from './regex-budget';
import { textMismatch } from './text-match';

const CATASTROPHIC = '^(a+)+$';
const HOSTILE = `${'a'.repeat(40)}!`;

const session = (text: string): RecordedSession => ({
  terminationReason: 'completed',
  iterations: 1,
  toolCallCount: 0,
  finalAnswer: text,
  events: recordedEvents([{ seq: 0, iteration: 0, type: 'tool_result', payload: { name: 'read_file', output: text }, traceId: 't' }]),
  hostEvents: [],
  messages: [{ index: 0, iteration: 0, toolName: null, role: 'assistant', kind: 'assistant', content: text, compacted: false }],
  iterationRows: [],
  toolCalls: [],
  requests: null,
  files: { 'out.txt': text },
});

describe('regex expectations under a time budget', () => {
  it('a catastrophic pattern against a hostile text stops with a clear error, and the next test runs as usual', () => {
    expect(() => regexTest(CATASTROPHIC, HOSTILE)).toThrow(RegexBudgetError);
    expect(() => regexTest(CATASTROPHIC, HOSTILE)).toThrow(
      'regex /^(a+)+$/ exceeded its 250 ms budget on a 41-character text (it backtracks catastrophically)',
    );
    expect(regexTest(CATASTROPHIC, 'aaaa')).toBe(true);
    expect(regexTest('[Ff]riday', 'See you on friday.')).toBe(true);
  });

  it('fails each check that asks for it, with the reason, and judges the others', () => {
    const checks: Expectation[] = [
      { final_answer: { regex: CATASTROPHIC } },
      { file: 'out.txt', regex: CATASTROPHIC },
      { message: { role: 'assistant', regex: CATASTROPHIC } },
      { event: 'tool_result', with: { output: { $regex: CATASTROPHIC } } },
      { final_answer: { contains: 'aaa' } },
    ];
    const results = evaluateExpectations(checks, session(HOSTILE));
    expect(results.map((r) => r.passed)).toEqual([false, false, false, false, true]);
    for (const r of results.slice(0, 4)) expect(r.detail).toContain('regex /^(a+)+$/ exceeded its 250 ms budget');
    expect(textMismatch(HOSTILE, { regex: CATASTROPHIC })).toMatch(/^is not judged: regex .* exceeded its 250 ms budget/);
  });

  it('ordinary regexes match exactly as JavaScript RegExp does (the bundled scenarios among them)', () => {
    const cases: Array<[string, string]> = [
      ['[Ff]riday', 'The meeting is on Friday.'],
      ['[Ff]riday', 'Thursday'],
      ['^The project\\.\\n?$', 'The project.\n'],
      ['^The project\\.\\n?$', 'The project.\n\n'],
      ['^\\s*done$', '\u00a0 done'],
      ['(?<=a)b(?!c)', 'ab'],
      ['(\\w)\\1', 'hello'],
      ['^é+$', 'éé'],
    ];
    for (const [pattern, text] of cases)
      expect([pattern, text, regexTest(pattern, text)]).toEqual([pattern, text, new RegExp(pattern).test(text)]);
    expect(payloadMatches({ path: 'src/a.ts' }, { path: { $regex: '\\.ts$' } })).toBe(true);
    expect(payloadMatches({ path: 'src/a.js' }, { path: { $regex: '\\.ts$' } })).toBe(false);
    expect(textMismatch('Thursday', { regex: '[Ff]riday' })).toBe('does not match /[Ff]riday/');
    expect(() => regexTest('(', 'x')).toThrow(SyntaxError);
  });
});
