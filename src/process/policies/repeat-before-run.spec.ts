import { detectRepeatBeforeRun } from './repeat-before-run';

const read = (path: string) => ({ name: 'read_file', arguments: { path } });
const ran = (path: string, iteration: number) => ({ ...read(path), iteration, outcome: 'ok' as const });

describe('detectRepeatBeforeRun (corvid: the third identical call never runs)', () => {
  it('catches the third identical call before it runs, across replies', () => {
    const history = [ran('a.ts', 1), ran('a.ts', 2)];
    const hit = detectRepeatBeforeRun(history, [read(' a.ts ')], 3, 'normalized', 3);
    expect(hit).toEqual(expect.objectContaining({ kind: 'repeat_break', count: 3 }));
    expect(hit?.calls[2]).toEqual({ iteration: 3, name: 'read_file', arguments: { path: ' a.ts ' } });
  });

  it('catches a run completed inside one reply, and lets different calls through', () => {
    expect(detectRepeatBeforeRun([], [read('a'), read('a'), read('a')], 3, 'exact', 1)?.count).toBe(3);
    expect(detectRepeatBeforeRun([ran('a', 1), ran('a', 2)], [read('b')], 3, 'exact', 3)).toBeNull();
    expect(detectRepeatBeforeRun([ran('a', 1)], [read('a')], 3, 'exact', 2)).toBeNull();
  });

  it('is off at threshold 0', () => {
    expect(detectRepeatBeforeRun([ran('a', 1), ran('a', 2)], [read('a')], 0, 'exact', 3)).toBeNull();
  });
});
