import { DEFAULT_KEEP_ALIVE, parseGoDuration, parseKeepAlive } from './keep-alive';

describe('parseKeepAlive', () => {
  it.each([
    { raw: '30m', wire: '30m', ms: 1_800_000 },
    { raw: '1h30m', wire: '1h30m', ms: 5_400_000 },
    { raw: '90s', wire: '90s', ms: 90_000 },
    { raw: '1.5h', wire: '1.5h', ms: 5_400_000 },
    { raw: '250ms', wire: '250ms', ms: 250 },
    { raw: '0', wire: 0, ms: 0 },
    { raw: '300', wire: 300, ms: 300_000 },
    { raw: '2.5', wire: 2.5, ms: 2500 },
    { raw: '-1', wire: -1, ms: null },
    { raw: '-1m', wire: '-1m', ms: null },
    { raw: ' 10m ', wire: '10m', ms: 600_000 },
  ])('$raw → $wire ($ms ms)', ({ raw, wire, ms }) => {
    expect(parseKeepAlive(raw)).toEqual({ ok: true, value: { wire, ms } });
  });

  it.each(['', '5 minutes', '10x', 'm', '1d', '30M', 'forever'])('rejects %j with the accepted forms', (raw) => {
    const r = parseKeepAlive(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/seconds.*Go duration/);
  });

  it('defaults to 30 minutes', () => {
    expect(parseKeepAlive(DEFAULT_KEEP_ALIVE)).toEqual({ ok: true, value: { wire: '30m', ms: 1_800_000 } });
  });

  it('reads Go durations as time.ParseDuration does', () => {
    expect(parseGoDuration('1h2m3s4ms')).toBe(3_723_004);
    expect(parseGoDuration('+5s')).toBe(5000);
    expect(parseGoDuration('1000us')).toBe(1);
    expect(parseGoDuration('1')).toBeUndefined();
    expect(parseGoDuration('')).toBeUndefined();
  });
});
