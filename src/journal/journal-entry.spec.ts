import { toBatch, type JournalEntry } from './journal-entry';

const ids = { traceId: 't'.repeat(32), spanId: 's'.repeat(16) };
const at = new Date(0);

describe('toBatch', () => {
  it('keeps only the last snapshot of each upserted row, and every event in order', () => {
    const session = (status: 'running' | 'finished') => ({
      kind: 'session' as const,
      row: {
        id: 'S',
        pid: 1,
        agent: 'a',
        model: 'm',
        status,
        terminationReason: null,
        exitCode: null,
        error: null,
        prompt: 'p',
        councilRole: null,
        trialId: null,
        workspace: null,
        config: {},
        ownerPid: 1,
        ownerHost: 'h',
        iterations: 0,
        toolCallCount: 0,
        inputTokens: 0,
        outputTokens: 0,
        approvalWaitMs: 0,
        startedAt: at,
        finishedAt: null,
        ...ids,
      },
    });
    const event = (seq: number): JournalEntry => ({
      kind: 'event',
      row: {
        sessionId: 'S',
        seq,
        iteration: null,
        type: 'nudge',
        payload: { reason: 'tooShort', evidence: { length: seq, iteration: seq } },
        createdAt: at,
        ...ids,
      },
    });
    const batch = toBatch([
      session('running'),
      event(0),
      event(1),
      session('finished'),
      event(2),
      { kind: 'message_compacted', sessionId: 'S', idx: 3, compactedAt: at },
    ]);
    expect(batch.sessions).toHaveLength(1);
    expect(batch.sessions[0].status).toBe('finished');
    expect(batch.events.map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(batch.compactions).toEqual([{ sessionId: 'S', idx: 3, compactedAt: at }]);
  });
});
