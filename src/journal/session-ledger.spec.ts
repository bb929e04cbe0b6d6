import type { JournalEntry } from './journal-entry';
import { SessionLedger } from './session-ledger';

const ids = { traceId: 't', spanId: 's' };
const at = new Date(0);
const session = (id: string, iterations: number): JournalEntry => ({
  kind: 'session',
  row: {
    ...ids,
    id,
    pid: 1,
    agent: 'loupe',
    model: 'm',
    status: 'running',
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
    iterations,
    toolCallCount: 0,
    inputTokens: 0,
    outputTokens: 0,
    approvalWaitMs: 0,
    startedAt: at,
    finishedAt: null,
  },
});
const message = (sessionId: string, idx: number, content: string): JournalEntry => ({
  kind: 'message',
  row: {
    ...ids,
    sessionId,
    idx,
    role: 'user',
    kind: 'prompt',
    content,
    toolCalls: null,
    toolCallId: null,
    toolName: null,
    thinking: null,
    iteration: null,
    compactedAt: null,
    createdAt: at,
  },
});
const event = (sessionId: string | null, seq: number): JournalEntry => ({
  kind: 'event',
  row: {
    ...ids,
    sessionId,
    seq,
    iteration: null,
    type: 'tool_result',
    payload: { id: `c${seq}`, name: 'x', status: 'ok', chars: seq, durationMs: 0 },
    createdAt: at,
  },
});

describe('SessionLedger', () => {
  it('keeps the last snapshot per key, events in order, compactions applied, and only its own session', () => {
    const ledger = new SessionLedger('a');
    expect(ledger.detail()).toBeNull();
    for (const e of [
      session('a', 0),
      message('a', 1, 'second'),
      message('a', 0, 'first'),
      event('a', 1),
      event('a', 0),
      event('b', 0),
      event(null, 0),
      message('b', 0, 'other'),
      session('a', 2),
    ]) {
      ledger.apply(e);
    }
    ledger.apply({ kind: 'message_compacted', sessionId: 'a', idx: 1, compactedAt: at });
    const d = ledger.detail()!;
    expect(d.session.iterations).toBe(2);
    expect(d.messages.map((m) => [m.idx, m.content, m.compactedAt])).toEqual([
      [0, 'first', null],
      [1, 'second', at],
    ]);
    expect(d.events.map((e) => e.seq)).toEqual([0, 1]);
    expect(ledger.eventCount).toBe(2);
  });
});
