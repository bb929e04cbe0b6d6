import { journalEvents, recordedEvents } from './recorded-events.test-kit';
import type { Expectation } from '../scenario/scenario-schema';
import { evaluateExpectations, payloadMatches } from './evaluate-expectations';
import type { RecordedSession } from './recorded-session';

const session: RecordedSession = {
  terminationReason: 'completed',
  iterations: 4,
  toolCallCount: 3,
  finalAnswer: 'All three files were read.',
  events: recordedEvents([
    { seq: 0, iteration: 0, type: 'tool_result', payload: { name: 'read_file', status: 'ok', chars: 5 }, traceId: 't' },
    { seq: 1, iteration: 1, type: 'tool_result', payload: { name: 'list_files', status: 'ok', chars: 9 }, traceId: 't' },
    { seq: 2, iteration: null, type: 'session_finished', payload: { reason: 'completed', exitCode: 0 }, traceId: 't' },
  ]),
  hostEvents: journalEvents([{ type: 'gpu_detected', payload: { host: 'h', gpuDetected: true, maxWeight: 5 } }]),
  messages: [
    { index: 0, iteration: null, toolName: null, role: 'user', kind: 'prompt', content: 'Read the files', compacted: false },
    { index: 1, iteration: 0, toolName: 'read_file', role: 'tool', kind: 'tool_result', content: 'old output', compacted: true },
    {
      index: 2,
      iteration: 1,
      toolName: null,
      role: 'assistant',
      kind: 'assistant',
      content: 'All three files were read.',
      compacted: false,
    },
  ],
  iterationRows: [],
  toolCalls: [],
  requests: null,
  files: { 'out.txt': 'hello world', 'gone.txt': undefined },
};

describe('evaluateExpectations', () => {
  const cases: Array<[string, Expectation, boolean]> = [
    ['an event that was recorded passes', { event: 'tool_result' }, true],
    ["a host event of the trial's stand-in passes", { host_event: 'gpu_detected', with: { maxWeight: 5 } }, true],
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

describe('scenario format v1 checks', () => {
  const ev = (seq: number, type: string, payload: Record<string, unknown>, iteration: number | null = null) => ({
    seq,
    type,
    payload,
    iteration,
    traceId: 't',
  });
  const v1: RecordedSession = {
    ...session,
    finalAnswer: 'The port is 8080.',
    events: recordedEvents([
      ev(0, 'tool_call', { id: 'a', name: 'read_file' }, 0),
      ev(1, 'tool_result_capped', { id: 'a', maxChars: 3684, keptChars: 3684 }, 0),
      ev(2, 'nudge', { reason: 'tooShort' }, 1),
      ev(3, 'tool_call', { id: 'b', name: 'read_file' }, 2),
      ev(4, 'tool_result_capped', { id: 'b', maxChars: 2691, keptChars: 2600 }, 2),
      ev(5, 'session_finished', { reason: 'completed' }),
    ]),
    messages: [
      { index: 0, role: 'system', kind: 'system', content: 'You are an agent', compacted: false, iteration: null, toolName: null },
      { index: 1, role: 'tool', kind: 'tool_result', content: '{"port": 8080}', compacted: false, iteration: 2, toolName: 'read_file' },
      { index: 2, role: 'assistant', kind: 'assistant', content: 'The port is 8080.', compacted: false, iteration: 3, toolName: null },
    ],
    requests: [
      {
        index: 1,
        model: 'm',
        roles: ['system', 'user'],
        contents: ['sys', 'read config'],
        tools: ['read_file', 'write_file'],
        options: { num_ctx: 4096 },
      },
      {
        index: 2,
        model: 'm',
        roles: ['system', 'user', 'assistant', 'tool'],
        contents: ['sys', 'read config', '', '{"port": 8080}'],
        tools: ['write_file', 'read_file'],
        options: { num_ctx: 4096 },
      },
    ],
  };

  const cases: Array<[string, Expectation, boolean]> = [
    ['an event after another passes', { event: 'tool_call', with: { id: 'b' }, after: 'nudge' }, true],
    ['an event before another fails when it came later', { event: 'tool_call', with: { id: 'b' }, before: 'nudge' }, false],
    [
      'an order reference with a pattern and occurrence',
      { event: 'nudge', after: { event: 'tool_call', occurrence: 1 }, before: { event: 'tool_call', with: { id: 'b' } } },
      true,
    ],
    ['an order reference to an event that never happened keeps nothing', { event: 'tool_call', after: 'repeat_break' }, false],
    ['no_event after a point passes', { no_event: 'nudge', after: { event: 'tool_call', with: { id: 'b' } } }, true],
    ['the n-th event of a type is checked', { event: 'tool_result_capped', occurrence: 2, with: { id: 'b' } }, true],
    [
      'a field compared with another field of the same event',
      { event: 'tool_result_capped', with: { keptChars: { $lte: { $ref: 'maxChars' } } }, count: 2 },
      true,
    ],
    [
      "a field compared with another event's field: the cap under pressure is smaller than the first",
      {
        event: 'tool_result_capped',
        occurrence: 2,
        with: { maxChars: { $lt: { $ref: { event: 'tool_result_capped', occurrence: 1, field: 'maxChars' } } } },
      },
      true,
    ],
    [
      'a cross-event comparison that does not hold fails',
      {
        event: 'tool_result_capped',
        occurrence: 1,
        with: { maxChars: { $lt: { $ref: { event: 'tool_result_capped', occurrence: 2, field: 'maxChars' } } } },
      },
      false,
    ],
    ['final answer equals', { final_answer: { equals: 'The port is 8080.' } }, true],
    ['final answer regex', { final_answer: { regex: '^The port is \\d+\\.$' } }, true],
    ['final answer regex that does not match', { final_answer: { regex: 'port is 1234' } }, false],
    ['final answer contains and not_contains together', { final_answer: { contains: '8080', not_contains: '1234' } }, true],
    ['tools used', { tools_used: ['read_file'] }, true],
    ['a tool never used', { tools_used: ['write_file'] }, false],
    ['tools not used', { tools_not_used: ['run_command'] }, true],
    ['a message selected by iteration and tool', { message: { iteration: 2, tool: 'read_file', contains: '8080' } }, true],
    ['a message selected by position', { message: { position: 0, role: 'system' } }, true],
    ['the last message', { message: { last: true, role: 'assistant', regex: '8080' } }, true],
    ['the last message is not the system prompt', { message: { last: true, role: 'system' } }, false],
    ['what the model was sent: roles', { request: 2, roles: ['system', 'user', 'assistant', 'tool'] }, true],
    ['what the model was sent: the tool result is in the last request', { request: 'last', contains: '"port": 8080' }, true],
    ['what the model was sent: tools offered, in any order', { request: 1, tools: ['write_file', 'read_file'] }, true],
    ['what the model was sent: options', { request: 1, options: { num_ctx: 4096 } }, true],
    ['what the model was sent: wrong roles', { request: 1, roles: ['system'] }, false],
    ['a request that was never made', { request: 3 }, false],
    ['the number of requests', { requests: 2 }, true],
  ];

  it.each(cases)('%s', (_name, expectation, passed) => {
    const [result] = evaluateExpectations([expectation], v1);
    expect(result.passed).toBe(passed);
    if (!passed) expect(result.detail).toEqual(expect.any(String));
  });

  it('says requests are known only on the stand-in against a real model', () => {
    const [result] = evaluateExpectations([{ request: 1 }], { ...v1, requests: null });
    expect(result).toEqual(expect.objectContaining({ passed: false, detail: expect.stringMatching(/only on the stand-in/) }));
  });
});
