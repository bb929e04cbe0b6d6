import { RequestLog } from './standin-request-log';

describe('RequestLog', () => {
  it('keeps every record by default', () => {
    const log = new RequestLog();
    for (let i = 0; i < 2_000; i++) log.start('GET', '/', i);
    expect(log.records).toHaveLength(2_000);
    expect(log.received).toBe(2_000);
  });

  it('with a limit keeps only the newest records, and still counts every request', () => {
    const log = new RequestLog(3);
    const started = [1, 2, 3, 4, 5].map((i) => log.start('POST', '/api/chat', i));
    expect(log.records.map((r) => r.id)).toEqual([3, 4, 5]);
    expect(log.received).toBe(5);
    expect(log.pending).toBe(5);
    // a request whose record is no longer listed still ends: nothing waits on it for ever
    for (const r of started) log.finish(r, 10);
    expect(log.pending).toBe(0);
    expect(started[0].finishedAt).toBe(10);
  });

  it('settles once dropped records finish', async () => {
    const log = new RequestLog(1);
    const first = log.start('GET', '/', 0);
    const second = log.start('GET', '/', 1);
    const settled = log.settled(1_000);
    log.finish(second, 2);
    log.finish(first, 3);
    await expect(settled).resolves.toBeUndefined();
  });

  it.each([0, -1, 2.5, Number.NaN])('refuses a limit of %p', (limit) => {
    expect(() => new RequestLog(limit)).toThrow(`stand-in request log limit: expected a whole number of at least 1, got ${limit}`);
  });
});
