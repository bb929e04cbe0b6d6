import type { Expectation } from '../scenario/scenario-schema';
import { evaluateExpectations, payloadMatches } from './evaluate-expectations';
import type { RecordedSession } from './recorded-session';

const session: RecordedSession = {
  terminationReason: 'completed',
  iterations: 4,
  toolCallCount: 3,
  finalAnswer: 'All three files were read.',
  events: [
    { type: 'tool_result', payload: { name: 'read_file', status: 'ok', chars: 5 }, traceId: 't' },
    { type: 'tool_result', payload: { name: 'list_files', status: 'ok', chars: 9 }, traceId: 't' },
    { type: 'session_finished', payload: { reason: 'completed', exitCode: 0 }, traceId: 't' },
  ],
  hostEvents: [{ type: 'gpu_detected', payload: { host: 'h', gpuDetected: true, maxWeight: 5 } }],
  messages: [
    { role: 'user', kind: 'prompt', content: 'Read the files', compacted: false },
    { role: 'tool', kind: 'tool_result', content: 'old output', compacted: true },
    { role: 'assistant', kind: 'assistant', content: 'All three files were read.', compacted: false },
  ],
  files: { 'out.txt': 'hello world', 'gone.txt': undefined },
};

describe('evaluateExpectations', () => {
  const cases: Array<[string, Expectation, boolean]> = [
    ['an event that was recorded passes', { event: 'tool_result' }, true],
    ['a host event of the trial\'s stand-in passes', { host_event: 'gpu_detected', with: { maxWeight: 5 } }, true],
    ['a host event is not a session event', { event: 'gpu_detected' }, false],
    ['a host event with a different payload fails', { host_event: 'gpu_detected', with: { maxWeight: 3 } }, false],
    ['an event with a matching payload subset passes', { event: 'tool_result', with: { name: 'read_file' } }, true],
    ['an event whose payload differs fails', { event: 'tool_result', with: { name: 'write_file' } }, false],
    ['an exact event count passes', { event: 'tool_result', count: 2 }, true],
    ['a wrong event count fails', { event: 'tool_result', count: 3 }, false],
    ['a count range passes', { event: 'tool_result', count: { min: 1, max: 2 } }, true],
    ['an absent event passes no_event', { no_event: 'repeat_break' }, true],
    ['a recorded event fails no_event', { no_event: 'session_finished' }, false],
    ['the right termination passes', { termination: 'completed' }, true],
    ['a wrong termination fails', { termination: 'repeat_break' }, false],
    ['final answer text passes', { final_answer_contains: 'three files' }, true],
    ['missing final answer text fails', { final_answer_contains: 'four files' }, false],
    ['final answer without text passes', { final_answer_not_contains: 'tool_output' }, true],
    ['a file with equal content passes', { file: 'out.txt', equals: 'hello world' }, true],
    ['a file with other content fails', { file: 'out.txt', equals: 'hello' }, false],
    ['a file containing text passes', { file: 'out.txt', contains: 'world' }, true],
    ['a missing file fails', { file: 'gone.txt' }, false],
    ['a missing file passes exists: false', { file: 'gone.txt', exists: false }, true],
    ['iteration count passes', { iterations: 4 }, true],
    ['iteration range fails', { iterations: { max: 3 } }, false],
    ['tool call count passes', { tool_calls: 3 }, true],
    ['a transcript message passes', { message: { role: 'assistant', contains: 'read' } }, true],
    ['an absent transcript message passes', { message: { contains: '<<tool_output>>' }, absent: true }, true],
    ['a present message fails absent', { message: { role: 'user', contains: 'Read' }, absent: true }, false],
    ['a compacted tool result passes', { message: { kind: 'tool_result', compacted: true } }, true],
    ['an uncompacted tool result fails', { message: { kind: 'tool_result', compacted: false } }, false],
    ['a message count passes', { message: { role: 'assistant' }, count: 1 }, true],
    ['a wrong message count fails', { message: { role: 'assistant' }, count: 2 }, false],
  ];

  it.each(cases)('%s', (_name, expectation, passed) => {
    const [result] = evaluateExpectations([expectation], session);
    expect(result.passed).toBe(passed);
    expect(result.expectation.length).toBeGreaterThan(0);
    if (!passed) expect(result.detail).toEqual(expect.any(String));
  });

  it('matches nested payloads partially and arrays exactly', () => {
    expect(payloadMatches({ a: { b: 1, c: 2 }, d: [1, 2] }, { a: { b: 1 }, d: [1, 2] })).toBe(true);
    expect(payloadMatches({ d: [1, 2, 3] }, { d: [1, 2] })).toBe(false);
    expect(payloadMatches({ a: null }, { a: null })).toBe(true);
    expect(payloadMatches({ a: '1' }, { a: 1 })).toBe(false);
  });

  it.each([
    [{ ms: 1200 }, { ms: { $gte: 1000, $lte: 1500 } }, true],
    [{ ms: 900 }, { ms: { $gte: 1000 } }, false],
    [{ ms: 2000 }, { ms: { $lt: 1500 } }, false],
    [{ text: 'timed out after 300 ms' }, { text: { $contains: 'timed out' } }, true],
    [{ tools: ['a', 'b'] }, { tools: { $contains: 'b' } }, true],
    [{ tools: ['a'] }, { tools: { $contains: 'b' } }, false],
    [{ error: null }, { error: { $exists: false } }, true],
    [{ error: 'x' }, { error: { $exists: false } }, false],
    [{ kind: 'a' }, { kind: { $ne: 'b' } }, true],
  ])('matches operators: %j against %j', (have, want, expected) => {
    expect(payloadMatches(have, want)).toBe(expected);
  });

  it('names an unknown operator', () => {
    expect(() => payloadMatches({ a: 1 }, { a: { $between: [0, 2] } })).toThrow(/unknown payload operator \$between/);
  });
});
