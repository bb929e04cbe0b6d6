import { expiredMessage, expiredSessions, sweepIntervalMs } from './session-expiry';

describe('expiredSessions', () => {
  const watched = [
    { sessionId: 'fresh', lastActivityAt: 9_500 },
    { sessionId: 'exact', lastActivityAt: 9_000 },
    { sessionId: 'stale', lastActivityAt: 1_000 },
  ];

  it('expires the sessions idle for at least the limit, longest idle first', () => {
    expect(expiredSessions(watched, 10_000, 1_000)).toEqual([
      { sessionId: 'stale', idleMs: 9_000, idleTimeoutMs: 1_000 },
      { sessionId: 'exact', idleMs: 1_000, idleTimeoutMs: 1_000 },
    ]);
  });

  it('keeps a session with activity inside the limit', () => {
    expect(expiredSessions(watched, 10_000, 1_000).map((s) => s.sessionId)).not.toContain('fresh');
    expect(expiredSessions([{ sessionId: 'a', lastActivityAt: 5_000 }], 5_999, 1_000)).toEqual([]);
  });

  it('expires nothing when the limit is 0 (off)', () => {
    expect(expiredSessions(watched, 10_000_000, 0)).toEqual([]);
  });
});

describe('sweepIntervalMs', () => {
  it('looks four times per limit, at most once a minute and at least every 10 ms', () => {
    expect(sweepIntervalMs(3_600_000)).toBe(60_000);
    expect(sweepIntervalMs(80_000)).toBe(20_000);
    expect(sweepIntervalMs(8)).toBe(10);
  });
});

describe('expiredMessage', () => {
  it('says the session expired, that its history is kept, and which setting decides', () => {
    const m = expiredMessage('s1');
    expect(m).toMatch(/session s1 has expired/);
    expect(m).toMatch(/history is kept/);
    expect(m).toMatch(/LOUPE_SESSION_IDLE_TIMEOUT_MS/);
  });
});
