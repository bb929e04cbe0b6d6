import { recordedEvents } from '../expectations/recorded-events.test-kit';
import type { RecordedEvent, RecordedSession } from '../expectations/recorded-session';
import { checkInvariants } from './check-invariants';

function session(types: Array<[string, Record<string, unknown>?]>, over: Partial<RecordedSession> = {}): RecordedSession {
  const events: RecordedEvent[] = recordedEvents(
    types.map(([type, payload], seq) => ({
      seq,
      type,
      payload: payload ?? {},
      iteration: null,
      traceId: 't',
    })),
  );
  return {
    terminationReason: 'completed',
    iterations: 1,
    toolCallCount: 0,
    finalAnswer: '',
    events,
    hostEvents: [],
    messages: [],
    iterationRows: [],
    toolCalls: [],
    files: {},
    requests: null,
    ...over,
  };
}

const start: [string, Record<string, unknown>] = ['session_started', { settings: { maxToolIterations: 3, numCtx: 4096 } }];
const healthy: Array<[string, Record<string, unknown>?]> = [
  start,
  ['slot_acquired'],
  ['iteration_started', { purpose: 'step' }],
  ['tool_call', { id: 'a' }],
  ['tool_result', { id: 'a', chars: 10 }],
  ['iteration_started', { purpose: 'step' }],
  ['slot_released'],
  ['session_finished'],
];

describe('checkInvariants', () => {
  it('passes a healthy session', () => {
    expect(checkInvariants(session(healthy, { toolCalls: [{ id: 'a', name: 'read_file', status: 'completed' }] }))).toEqual([]);
  });

  it.each<[string, Array<[string, Record<string, unknown>?]>, Partial<RecordedSession>, string]>([
    ['a slot acquired and never released', [start, ['slot_acquired'], ['session_finished']], {}, 'slot_acquired_once_released_once'],
    [
      'a slot released twice',
      [start, ['slot_acquired'], ['slot_released'], ['slot_released'], ['session_finished']],
      {},
      'slot_acquired_once_released_once',
    ],
    [
      'more loop steps than allowed',
      [
        start,
        ...Array.from({ length: 4 }, (): [string, Record<string, unknown>] => ['iteration_started', { purpose: 'step' }]),
        ['session_finished'],
      ],
      {},
      'loop_bounded',
    ],
    [
      'a break without an epilogue',
      [start, ['repeat_break'], ['session_finished']],
      { terminationReason: 'repeat_break' },
      'break_followed_by_epilogue',
    ],
    [
      'an epilogue sent with tools',
      [start, ['max_iterations'], ['inference_request', { purpose: 'epilogue', toolsSent: true, toolCount: 3 }], ['session_finished']],
      { terminationReason: 'max_iterations' },
      'break_followed_by_epilogue',
    ],
    [
      'a result kept over its cap',
      [start, ['tool_result_capped', { id: 'a', keptChars: 5000, maxChars: 3000 }], ['session_finished']],
      {},
      'tool_result_within_cap',
    ],
    [
      'a huge result never capped',
      [start, ['tool_call', { id: 'a' }], ['tool_result', { id: 'a', chars: 50_000 }], ['session_finished']],
      {},
      'tool_result_within_cap',
    ],
    [
      'a tool call left executing',
      [start, ['session_finished']],
      { toolCalls: [{ id: 'a', name: 'x', status: 'executing' }] },
      'tool_calls_closed',
    ],
    ['a tool call with no result event', [start, ['tool_call', { id: 'a' }], ['session_finished']], {}, 'tool_calls_closed'],
    [
      'more answered step calls than allowed, in fewer iterations',
      [
        start,
        ['iteration_started', { purpose: 'step' }],
        ...Array.from({ length: 4 }, (): [string, Record<string, unknown>] => ['inference_response', { purpose: 'step' }]),
        ['session_finished'],
      ],
      {},
      'loop_bounded',
    ],
    [
      'a negative working time',
      [start, ['approval_decided', { waitedMs: 301 }], ['session_finished', { approvalWaitMs: 301, workingMs: -5 }]],
      {},
      'approval_wait_accounted',
    ],
    [
      'an approval wait counted twice',
      [start, ['approval_decided', { waitedMs: 301 }], ['session_finished', { approvalWaitMs: 602, workingMs: 40 }]],
      {},
      'approval_wait_accounted',
    ],
    ['an event after session_finished', [start, ['session_finished'], ['nudge']], {}, 'session_finished_last'],
    ['two session_finished events', [start, ['session_finished'], ['session_finished']], {}, 'session_finished_last'],
  ])('catches %s', (_name, types, over, invariant) => {
    expect(checkInvariants(session(types, over)).map((v) => v.invariant)).toContain(invariant);
  });

  it('does not count compaction or epilogue calls as loop turns', () => {
    const calls = (purpose: string, n: number) =>
      Array.from({ length: n }, (): [string, Record<string, unknown>] => ['inference_response', { purpose }]);
    expect(
      checkInvariants(session([start, ...calls('step', 3), ...calls('compaction', 2), ...calls('epilogue', 1), ['session_finished']])),
    ).toEqual([]);
  });

  it('accepts approval waits counted once, and a killed session whose last wait has no decision', () => {
    const finished = (approvalWaitMs: number) =>
      ['session_finished', { approvalWaitMs, workingMs: 10 }] as [string, Record<string, unknown>];
    const decided = (waitedMs: number) => ['approval_decided', { waitedMs }] as [string, Record<string, unknown>];
    expect(checkInvariants(session([start, decided(301), decided(0), decided(99), finished(400)]))).toEqual([]);
    expect(checkInvariants(session([start, decided(301), finished(500)], { terminationReason: 'aborted' }))).toEqual([]);
  });

  it('accepts a break followed by a tools-off epilogue, and a killed session without one', () => {
    const withEpilogue = session(
      [start, ['repeat_break'], ['inference_request', { purpose: 'epilogue', toolsSent: false, toolCount: 0 }], ['session_finished']],
      { terminationReason: 'repeat_break' },
    );
    expect(checkInvariants(withEpilogue)).toEqual([]);
    expect(checkInvariants(session([start, ['repeat_break'], ['session_finished']], { terminationReason: 'aborted' }))).toEqual([]);
  });

  it("follows the session's profile: no epilogue where it has none, no cap where it caps nothing, its own fixed cap", () => {
    const none: [string, Record<string, unknown>] = [
      'session_started',
      { settings: { profile: 'opencode', epilogue: 'none', toolResultCap: 'off', numCtx: 4096 } },
    ];
    expect(checkInvariants(session([none, ['repeat_break'], ['session_finished']], { terminationReason: 'repeat_break' }))).toEqual([]);
    expect(
      checkInvariants(
        session([none, ['repeat_break'], ['iteration_started', { purpose: 'epilogue' }], ['session_finished']], {
          terminationReason: 'repeat_break',
        }),
      ),
    ).toEqual([expect.objectContaining({ invariant: 'break_followed_by_epilogue' })]);
    expect(checkInvariants(session([none, ['tool_result', { id: 'c', chars: 100_000 }], ['session_finished']]))).toEqual([]);
    const fixed: [string, Record<string, unknown>] = [
      'session_started',
      { settings: { profile: 'dexto', epilogue: 'none', toolResultCap: 'fixed_chars', toolResultMaxChars: 120_000, numCtx: 4096 } },
    ];
    expect(checkInvariants(session([fixed, ['tool_result', { id: 'c', chars: 100_000 }], ['session_finished']]))).toEqual([]);
    expect(checkInvariants(session([fixed, ['tool_result', { id: 'c', chars: 130_000 }], ['session_finished']]))).toEqual([
      expect.objectContaining({ invariant: 'tool_result_within_cap' }),
    ]);
  });
});
