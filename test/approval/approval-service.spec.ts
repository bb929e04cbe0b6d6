// The approval service as the loop, a person and a script meet it: requests wait for a decision,
// the clock rejects what nobody answers, a session that ends takes its requests with it, and an
// answer for a call nobody waits on is recorded, not thrown.
// covers: mcp-agent-technical-spec#error-no-matching-call, mcp-agent-technical-spec#error-queue-lifecycle
import { ApprovalService } from '../../src/approval/approval.service';
import type { JournalEntry } from '../../src/journal/journal-entry';
import type { JournalService } from '../../src/journal/journal.service';

function setup() {
  const entries: JournalEntry[] = [];
  const service = new ApprovalService({ append: (e: JournalEntry) => entries.push(e) } as unknown as JournalService);
  return { service, entries };
}

const request = (callId: string) => ({
  sessionId: 's1',
  callId,
  name: 'write_file',
  args: { path: 'x' },
  queuePosition: 1,
  totalInQueue: 1,
});

describe('ApprovalService', () => {
  // the wait and the time limit run on the clock and a timer: fake ones, moved by the test
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("resolves a request with a person's decision, the reason and the wait", async () => {
    const { service } = setup();
    const verdict = service.request(request('c1'), { timeoutMs: 5_000, signal: new AbortController().signal });
    expect(service.pending('s1').map((p) => p.callId)).toEqual(['c1']);
    jest.advanceTimersByTime(20);
    expect(service.decide('c1', false, 'person', 'not today')).toEqual(expect.objectContaining({ ok: true }));
    expect(await verdict).toEqual({ approved: false, by: 'person', reason: 'not today', waitedMs: 20 });
    expect(service.pending()).toEqual([]);
    expect(jest.getTimerCount()).toBe(0); // the time limit's timer went with the decision
  });

  it('counts a request nobody answers in time as rejected, with that reason', async () => {
    const { service } = setup();
    let verdict: unknown;
    void service.request(request('c2'), { timeoutMs: 30, signal: new AbortController().signal }).then((v) => (verdict = v));
    await jest.advanceTimersByTimeAsync(29);
    expect(verdict).toBeUndefined();
    expect(service.pending().map((p) => p.callId)).toEqual(['c2']);
    await jest.advanceTimersByTimeAsync(1);
    expect(verdict).toEqual(expect.objectContaining({ approved: false, by: 'timeout', reason: 'no decision within 30 ms', waitedMs: 30 }));
    expect(service.pending()).toEqual([]);
  });

  it('clears the requests of a session that ends', async () => {
    const { service } = setup();
    const ended = new AbortController();
    const verdict = service.request(request('c3'), { timeoutMs: 5_000, signal: ended.signal });
    ended.abort();
    expect(await verdict).toEqual(expect.objectContaining({ approved: false, by: 'session_end' }));
    expect(service.pending()).toEqual([]);
  });

  it('records an answer for an unknown call as a host event and carries on', () => {
    const { service, entries } = setup();
    expect(service.decide('nobody-waits', true, 'person')).toEqual({ ok: false, error: 'unknown_call' });
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'event',
        row: expect.objectContaining({
          sessionId: null,
          type: 'approval_unknown',
          payload: { callId: 'nobody-waits', approved: true, by: 'person' },
        }),
      }),
    ]);
  });

  it('answers a call once: a second decision is unknown', async () => {
    const { service } = setup();
    const verdict = service.request(request('c4'), { timeoutMs: 5_000, signal: new AbortController().signal });
    service.decide('c4', true, 'script');
    expect(service.decide('c4', false, 'person')).toEqual({ ok: false, error: 'unknown_call' });
    expect((await verdict).approved).toBe(true);
  });
});
