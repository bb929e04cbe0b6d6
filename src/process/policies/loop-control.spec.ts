import type { CallRecord } from './call-record';
import { LOOP_CONTROL_ORDER, evaluateLoopControl } from './loop-control';
import type { LoopControlConfig } from './loop-control';

const call = (name: string, args: Record<string, unknown> = {}, extra: Partial<CallRecord> = {}): CallRecord => ({
  iteration: 0,
  name,
  arguments: args,
  ...extra,
});
const numbered = (...calls: CallRecord[]) => calls.map((c, i) => ({ ...c, iteration: i + 1 }));

const readA = call('read_file', { path: 'a' });
const readB = call('read_file', { path: 'b' });
const failA = call('read_file', { path: 'a' }, { outcome: 'error', resultDigest: 'ENOENT' });

describe('evaluateLoopControl', () => {
  it('documents its priority order', () => {
    expect(LOOP_CONTROL_ORDER).toEqual(['error_repeat_break', 'repeat_break', 'cycle_break', 'same_tool_break', 'max_iterations']);
  });

  const failing = numbered(failA, failA, failA);
  const repeating = numbered(readA, readA, readA);
  const pingPong = numbered(readA, readB, readA, readB, readA, readB);
  const sameTool = numbered(...[1, 2, 3, 4, 5].map((n) => call('read_file', { path: String(n) })));
  const varied = numbered(readA, call('list_files'), readB, call('run_command', { command: 'ls' }));
  it.each<{ name: string; calls: CallRecord[]; config: LoopControlConfig; expected: unknown }>([
    { name: 'continues on varied calls', calls: varied, config: { iteration: 4 }, expected: { kind: 'continue' } },
    { name: 'continues on an empty history', calls: [], config: { iteration: 1 }, expected: { kind: 'continue' } },
    {
      name: 'names identical failures as an error repeat rather than a plain repeat',
      calls: failing,
      config: { iteration: 3 },
      expected: { kind: 'error_repeat_break', key: 'read_file:{"path":"a"}', error: 'ENOENT', count: 3, calls: failing },
    },
    {
      name: 'breaks on three identical successful calls',
      calls: repeating,
      config: { iteration: 3 },
      expected: { kind: 'repeat_break', key: 'read_file:{"path":"a"}', count: 3, calls: repeating },
    },
    {
      name: 'reports an A,B ping-pong on one tool as a cycle, not as same-tool',
      calls: pingPong,
      config: { iteration: 6 },
      expected: {
        kind: 'cycle_break',
        period: 2,
        repetitions: 3,
        cycle: ['read_file:{"path":"a"}', 'read_file:{"path":"b"}'],
        calls: pingPong,
      },
    },
    {
      name: 'falls back to same-tool for the ping-pong when cycle detection is off',
      calls: pingPong,
      config: { iteration: 6, cycle: false },
      expected: { kind: 'same_tool_break', toolName: 'read_file', count: 6, calls: pingPong },
    },
    {
      name: 'breaks on five calls of one tool with different arguments',
      calls: sameTool,
      config: { iteration: 5 },
      expected: { kind: 'same_tool_break', toolName: 'read_file', count: 5, calls: sameTool },
    },
    {
      name: 'stops at the iteration cap when nothing loops',
      calls: varied,
      config: { iteration: 25 },
      expected: { kind: 'max_iterations', iteration: 25, maxIterations: 25 },
    },
    {
      name: 'reports a loop caught at the cap as the loop',
      calls: repeating,
      config: { iteration: 25 },
      expected: { kind: 'repeat_break', key: 'read_file:{"path":"a"}', count: 3, calls: repeating },
    },
    {
      name: 'passes thresholds through',
      calls: repeating.slice(1),
      config: { iteration: 2, repeatThreshold: 2 },
      expected: { kind: 'repeat_break', key: 'read_file:{"path":"a"}', count: 2, calls: repeating.slice(1) },
    },
    {
      name: 'passes the iteration cap through',
      calls: varied,
      config: { iteration: 8, maxIterations: 8 },
      expected: { kind: 'max_iterations', iteration: 8, maxIterations: 8 },
    },
    {
      name: 'passes cycle options through',
      calls: pingPong.slice(2),
      config: { iteration: 4, cycle: { repetitions: 2 } },
      expected: {
        kind: 'cycle_break',
        period: 2,
        repetitions: 2,
        cycle: ['read_file:{"path":"a"}', 'read_file:{"path":"b"}'],
        calls: pingPong.slice(2),
      },
    },
    {
      name: 'passes the error-repeat threshold through',
      calls: failing.slice(1),
      config: { iteration: 2, errorRepeatThreshold: 2 },
      expected: { kind: 'error_repeat_break', key: 'read_file:{"path":"a"}', error: 'ENOENT', count: 2, calls: failing.slice(1) },
    },
    {
      name: 'passes the same-tool threshold through',
      calls: sameTool.slice(2),
      config: { iteration: 3, sameToolThreshold: 3 },
      expected: { kind: 'same_tool_break', toolName: 'read_file', count: 3, calls: sameTool.slice(2) },
    },
  ])('$name', ({ calls, config, expected }) => {
    expect(evaluateLoopControl(calls, config)).toEqual(expected);
  });
});
