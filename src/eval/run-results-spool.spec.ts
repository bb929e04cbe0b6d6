import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RunResultsSpool } from './run-results-spool';

describe('RunResultsSpool', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-spool-spec-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const result = (i: number) => ({
    report: { trialId: `t-${i}`, status: i % 3 ? 'passed' : 'failed', error: undefined, settings: { maxIterations: Infinity, at: i } },
    outcome: { trial: i, latency: { firstTokenMs: null }, big: 'x'.repeat(i * 100) },
  });

  it('reads back every result at its index exactly as added (undefined, Infinity and all), leaving holes', () => {
    const spool = new RunResultsSpool<ReturnType<typeof result>>(dir);
    for (const i of [3, 0, 7, 5]) spool.add(i, result(i));
    expect(spool.size).toBe(4);
    const read = spool.read(9);
    expect(read).toHaveLength(9);
    expect(Object.keys(read).map(Number)).toEqual([0, 3, 5, 7]);
    // toEqual: deserialised objects belong to Node's realm, not the test's (toStrictEqual compares constructors)
    for (const i of [0, 3, 5, 7]) expect(read[i]).toEqual(result(i));
    expect('error' in read[3].report).toBe(true);
    expect(read[3].report.settings.maxIterations).toBe(Infinity);
  });

  it('keeps nothing in the directory while it runs, nor after', () => {
    const spool = new RunResultsSpool<ReturnType<typeof result>>(dir);
    spool.add(0, result(0));
    expect(fs.readdirSync(dir)).toEqual([]);
    spool.read(1);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('holds results in memory when its file cannot be made', () => {
    const spool = new RunResultsSpool<ReturnType<typeof result>>(path.join(dir, 'missing'));
    spool.add(1, result(1));
    spool.add(0, result(0));
    expect(spool.read(2)).toStrictEqual([result(0), result(1)]);
  });

  it('large records (over its read buffer) come back whole', () => {
    const spool = new RunResultsSpool<{ s: string }>(dir);
    spool.add(0, { s: 'a'.repeat(200_000) });
    spool.add(1, { s: 'b' });
    expect(spool.read(2)).toEqual([{ s: 'a'.repeat(200_000) }, { s: 'b' }]);
  });
});
