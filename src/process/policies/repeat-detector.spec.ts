import type { CallRecord } from './call-record';
import { MAX_REPEATS, REPEAT_BREAK_THRESHOLD, detectRepeat, replyRepeatPositions } from './repeat-detector';

const history = (...specs: Array<[string, Record<string, unknown>?, Partial<CallRecord>?]>): CallRecord[] =>
  specs.map(([name, args = {}, extra = {}], i) => ({ iteration: i + 1, name, arguments: args, ...extra }));
const A: [string, Record<string, unknown>] = ['read_file', { path: 'a.ts' }];
const B: [string, Record<string, unknown>] = ['read_file', { path: 'b.ts' }];

const KEY_A = 'read_file:{"path":"a.ts"}';

describe('detectRepeat', () => {
  it('uses the spec constants: MAX_REPEATS = 2, break on the 3rd identical call', () => {
    expect(MAX_REPEATS).toBe(2);
    expect(REPEAT_BREAK_THRESHOLD).toBe(3);
  });

  const three = history(A, A, A);
  const withPrefix = history(B, A, A, A, A);
  const reformatted = history(['read_file', { path: 'a.ts ' }], ['read_file', { path: ' a.ts' }], A);
  it.each<{ name: string; calls: CallRecord[]; threshold?: number; expected: unknown }>([
    {
      name: 'breaks on the third identical consecutive call',
      calls: three,
      expected: { kind: 'repeat_break', key: KEY_A, count: 3, calls: three },
    },
    { name: 'does not break on two identical calls', calls: history(A, A), expected: null },
    { name: 'does not break on two identical calls separated by another call', calls: history(A, A, B, A), expected: null },
    { name: 'does not break when the identical run is not at the end', calls: history(A, A, A, B), expected: null },
    {
      name: 'reports the whole run when it is longer than the threshold',
      calls: withPrefix,
      expected: { kind: 'repeat_break', key: KEY_A, count: 4, calls: withPrefix.slice(1) },
    },
    {
      name: 'treats calls that differ only in whitespace as identical',
      calls: reformatted,
      expected: { kind: 'repeat_break', key: KEY_A, count: 3, calls: reformatted },
    },
    {
      name: 'honours a custom threshold',
      calls: history(A, A),
      threshold: 2,
      expected: { kind: 'repeat_break', key: KEY_A, count: 2, calls: history(A, A) },
    },
    { name: 'does not break on a custom threshold not yet reached', calls: three, threshold: 4, expected: null },
    { name: 'does nothing on an empty history', calls: [], expected: null },
  ])('$name', ({ calls, threshold, expected }) => {
    expect(detectRepeat(calls, threshold)).toEqual(expected);
  });

  it('compares exact JSON when asked (opencode, gemini-cli): key order and spacing count', () => {
    const calls = history(
      ['read_file', { path: 'a.ts', n: 1 }],
      ['read_file', { n: 1, path: 'a.ts' }],
      ['read_file', { path: 'a.ts', n: 1 }],
    );
    expect(detectRepeat(calls, 3)).not.toBeNull();
    expect(detectRepeat(calls, 3, 'exact')).toBeNull();
  });

  it('finds, within one reply, the calls that complete a run of identical calls (opencode asks before they run)', () => {
    const calls = history(A, A, A, B, A, A, A, A);
    expect([...replyRepeatPositions(calls, 3)]).toEqual([2, 6, 7]);
    expect([...replyRepeatPositions(calls, 0)]).toEqual([]);
  });
});
