import { mismatches, StorageCrossCheck, type CrossCheckIo } from './storage-cross-check';

function io(stored: Map<string, number>, opts: { failFlush?: () => boolean } = {}) {
  const calls: string[][] = [];
  const logs: string[] = [];
  const value: CrossCheckIo = {
    eventCounts: (ids) => {
      calls.push(ids);
      return Promise.resolve(new Map(ids.filter((id) => stored.has(id)).map((id) => [id, stored.get(id)!])));
    },
    flush: () => (opts.failFlush?.() ? Promise.reject(new Error('down')) : Promise.resolve()),
    warn: (m) => logs.push(`warn ${m}`),
    error: (m) => logs.push(`error ${m}`),
  };
  return { value, calls, logs };
}

describe('storage cross-check', () => {
  it('names each session whose stored count differs, in order', () => {
    expect(
      mismatches(
        [
          ['a', 2],
          ['b', 3],
          ['c', 1],
        ],
        new Map([
          ['a', 2],
          ['b', 1],
        ]),
      ),
    ).toEqual([
      { sessionId: 'b', recorded: 3, stored: 1 },
      { sessionId: 'c', recorded: 1, stored: 0 },
    ]);
  });

  it('checks full batches as the run goes, drops them from the map, and the rest at the end', async () => {
    const recorded = new Map<string, number>();
    const stored = new Map<string, number>();
    const { value, calls, logs } = io(stored);
    const check = new StorageCrossCheck(recorded, value, 2);
    for (let i = 0; i < 5; i++) {
      recorded.set(`s${i}`, 4);
      stored.set(`s${i}`, i === 1 ? 3 : 4);
      check.poll();
      await new Promise((r) => setImmediate(r));
    }
    expect(recorded.size).toBeLessThan(2);
    const storage = await check.finish();
    expect(storage).toEqual({ sessionsChecked: 5, mismatched: [{ sessionId: 's1', recorded: 4, stored: 3 }] });
    expect(calls.flat().sort()).toEqual(['s0', 's1', 's2', 's3', 's4']);
    expect(logs).toEqual([expect.stringMatching(/^error 1 session\(s\) in Postgres differ/)]);
  });

  it('a batch whose flush failed is checked after the final flush', async () => {
    const recorded = new Map<string, number>([
      ['a', 1],
      ['b', 1],
    ]);
    let down = true;
    const { value, calls } = io(new Map([['a', 1]]), { failFlush: () => down });
    const check = new StorageCrossCheck(recorded, value, 2);
    check.poll();
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([]);
    down = false;
    expect(await check.finish()).toEqual({ sessionsChecked: 2, mismatched: [{ sessionId: 'b', recorded: 1, stored: 0 }] });
  });
});
