import type { CallRecord } from './call-record';
import { CYCLE_MAX_PERIOD, CYCLE_MIN_PERIOD, CYCLE_REPETITIONS, detectCycle } from './cycle-detector';
import type { CycleOptions } from './cycle-detector';

/** Calls named by letter: 'A' → tool_A({}) so every letter is a distinct call. */
const seq = (letters: string): CallRecord[] => [...letters].map((l, i) => ({ iteration: i + 1, name: `tool_${l}`, arguments: {} }));
const key = (l: string) => `tool_${l}:{}`;

describe('detectCycle', () => {
  it('defaults to periods 2–5 repeated 3 times', () => {
    expect([CYCLE_MIN_PERIOD, CYCLE_MAX_PERIOD, CYCLE_REPETITIONS]).toEqual([2, 5, 3]);
  });

  it.each<{
    name: string;
    letters: string;
    options?: CycleOptions;
    expected: null | { period: number; repetitions: number; cycle: string; from: number };
  }>([
    {
      name: 'breaks on an A,B ping-pong repeated three times',
      letters: 'ABABAB',
      expected: { period: 2, repetitions: 3, cycle: 'AB', from: 0 },
    },
    { name: 'does not break on an A,B ping-pong repeated twice', letters: 'ABAB', expected: null },
    {
      name: 'breaks on a period-3 cycle repeated three times',
      letters: 'XABCABCABC',
      expected: { period: 3, repetitions: 3, cycle: 'ABC', from: 1 },
    },
    {
      name: 'breaks on a period-5 cycle repeated three times',
      letters: 'ABCDEABCDEABCDE',
      expected: { period: 5, repetitions: 3, cycle: 'ABCDE', from: 0 },
    },
    { name: 'does not look past the maximum period', letters: 'ABCDEFABCDEFABCDEF', expected: null },
    {
      name: 'counts every full repetition ending at the latest call',
      letters: 'ABABABAB',
      expected: { period: 2, repetitions: 4, cycle: 'AB', from: 0 },
    },
    {
      name: 'reports the cycle in call order when it starts mid-pair',
      letters: 'ABABABA',
      expected: { period: 2, repetitions: 3, cycle: 'BA', from: 1 },
    },
    { name: 'leaves a run of one identical call to the repeat detector', letters: 'AAAAAA', expected: null },
    { name: 'does not fire on a varied sequence', letters: 'ABCDEFGHIJ', expected: null },
    { name: 'does not fire when the last repetition is broken', letters: 'ABABAC', expected: null },
    { name: 'does not fire on repetitions that are not consecutive', letters: 'ABABXAB', expected: null },
    { name: 'does not fire when the cycle stopped before the latest call', letters: 'ABABABC', expected: null },
    {
      name: 'honours a custom repetition count',
      letters: 'ABAB',
      options: { repetitions: 2 },
      expected: { period: 2, repetitions: 2, cycle: 'AB', from: 0 },
    },
    { name: 'honours a custom maximum period', letters: 'ABCABCABC', options: { maxPeriod: 2 }, expected: null },
    { name: 'never checks period 1 even when asked to', letters: 'AAA', options: { minPeriod: 1 }, expected: null },
    { name: 'does nothing on an empty history', letters: '', expected: null },
  ])('$name', ({ letters, options, expected }) => {
    const calls = seq(letters);
    expect(detectCycle(calls, options)).toEqual(
      expected && {
        kind: 'cycle_break',
        period: expected.period,
        repetitions: expected.repetitions,
        cycle: [...expected.cycle].map(key),
        calls: calls.slice(expected.from),
      },
    );
  });

  it('does not fire on the same tools with legitimately different arguments', () => {
    const calls: CallRecord[] = ['a', 'b', 'c'].flatMap((f, i) => [
      { iteration: 2 * i + 1, name: 'read_file', arguments: { path: f } },
      { iteration: 2 * i + 2, name: 'edit_file', arguments: { path: f, patch: `fix ${f}` } },
    ]);
    expect(detectCycle(calls)).toBeNull();
  });

  it('keys calls by normalized arguments, so reformatted repeats still cycle', () => {
    const calls: CallRecord[] = [0, 1, 2].flatMap((i) => [
      { iteration: 2 * i + 1, name: 'read_file', arguments: { path: i % 2 ? ' a.ts' : 'a.ts' } },
      { iteration: 2 * i + 2, name: 'run_command', arguments: { command: 'npm   test' } },
    ]);
    expect(detectCycle(calls)).toEqual({
      kind: 'cycle_break',
      period: 2,
      repetitions: 3,
      cycle: ['read_file:{"path":"a.ts"}', 'run_command:{"command":"npm test"}'],
      calls,
    });
  });
});
