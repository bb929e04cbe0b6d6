import type { CallRecord } from './call-record';
import { ERROR_REPEAT_THRESHOLD, detectErrorRepeat } from './error-repeat-detector';

const fail = (path: string, error = 'ENOENT'): CallRecord => ({
  iteration: 0,
  name: 'read_file',
  arguments: { path },
  outcome: 'error',
  resultDigest: error,
});
const ok = (path: string): CallRecord => ({ iteration: 0, name: 'read_file', arguments: { path }, outcome: 'ok', resultDigest: 'content' });
const other: CallRecord = { iteration: 0, name: 'list_files', arguments: {}, outcome: 'ok' };
const numbered = (...calls: CallRecord[]) => calls.map((c, i) => ({ ...c, iteration: i + 1 }));
const KEY = 'read_file:{"path":"x.ts"}';

describe('detectErrorRepeat', () => {
  it('defaults to three identical failures, as OpenHands does', () => {
    expect(ERROR_REPEAT_THRESHOLD).toBe(3);
  });

  const consecutive = numbered(fail('x.ts'), fail('x.ts'), fail('x.ts'));
  const interleaved = numbered(fail('x.ts'), other, fail('x.ts'), ok('y.ts'), fail('x.ts'));
  const noDigest = numbered(...[1, 2, 3].map(() => ({ ...fail('x.ts'), resultDigest: undefined })));
  it.each<{ name: string; calls: CallRecord[]; threshold?: number; expected: unknown }>([
    {
      name: 'breaks on the same call failing with the same error three times in a row',
      calls: consecutive,
      expected: { kind: 'error_repeat_break', key: KEY, error: 'ENOENT', count: 3, calls: consecutive },
    },
    {
      name: 'breaks when the same failure recurs between other calls',
      calls: interleaved,
      expected: {
        kind: 'error_repeat_break',
        key: KEY,
        error: 'ENOENT',
        count: 3,
        calls: [interleaved[0], interleaved[2], interleaved[4]],
      },
    },
    { name: 'does not break on two failures', calls: consecutive.slice(1), expected: null },
    {
      name: 'does not break when the error changes (the model is making progress)',
      calls: numbered(fail('x.ts', 'ENOENT'), fail('x.ts', 'EACCES'), fail('x.ts', 'ENOENT')),
      expected: null,
    },
    { name: 'does not break when the arguments change', calls: numbered(fail('x.ts'), fail('y.ts'), fail('x.ts')), expected: null },
    { name: 'does not break when the latest call succeeded', calls: numbered(...consecutive, ok('x.ts')), expected: null },
    { name: 'does not count the same call when it succeeded', calls: numbered(fail('x.ts'), ok('x.ts'), fail('x.ts')), expected: null },
    {
      name: 'treats missing digests as the same error',
      calls: noDigest,
      expected: { kind: 'error_repeat_break', key: KEY, error: '', count: 3, calls: noDigest },
    },
    {
      name: 'honours a custom threshold',
      calls: consecutive.slice(1),
      threshold: 2,
      expected: { kind: 'error_repeat_break', key: KEY, error: 'ENOENT', count: 2, calls: consecutive.slice(1) },
    },
    { name: 'does nothing on an empty history', calls: [], expected: null },
  ])('$name', ({ calls, threshold, expected }) => {
    expect(detectErrorRepeat(calls, threshold)).toEqual(expected);
  });
});
