// A scenario's scripted approvals against the real approval service, driven the way the loop asks
// (approval-step.ts): the request is journaled, then registered with the service, then waited on.
import { ApprovalService } from '../../src/approval/approval.service';
import { scriptApprovals } from '../../src/eval/scripted-approvals';
import type { JournalEntry } from '../../src/journal/journal-entry';
import type { JournalService } from '../../src/journal/journal.service';

const spin = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end);
};

function setup() {
  const entries: JournalEntry[] = [];
  const service = new ApprovalService({ append: (e: JournalEntry) => entries.push(e) } as unknown as JournalService);
  return { service, entries };
}

const ask = (service: ApprovalService, sessionId: string, callId: string, name = 'write_file') =>
  service.request(
    { sessionId, callId, name, args: {}, queuePosition: 1, totalInQueue: 1 },
    { timeoutMs: 2_000, signal: new AbortController().signal },
  );

describe('scripted approvals', () => {
  it("answers its own session's n-th request (or any for a tool), through the service, as the script", async () => {
    const { service } = setup();
    const script = scriptApprovals(service, 's1', [
      { request: 1, approve: true },
      { request: 2, approve: false, reason: 'b.txt is protected' },
      { tool: 'read_file', approve: true },
    ]);
    try {
      const other = ask(service, 's2', 'x1'); // another session's request: not the script's to answer
      expect(await ask(service, 's1', 'c1')).toEqual(expect.objectContaining({ approved: true, by: 'script' }));
      expect(await ask(service, 's1', 'c2')).toEqual({
        approved: false,
        by: 'script',
        reason: 'b.txt is protected',
        waitedMs: expect.any(Number),
      });
      expect(await ask(service, 's1', 'c3', 'read_file')).toEqual(expect.objectContaining({ approved: true, by: 'script' }));
      expect(service.pending().map((p) => p.callId)).toEqual(['x1']);
      service.decide('x1', false, 'person');
      await other;
    } finally {
      script.stop();
    }
  });

  it('records a wait no shorter than after_ms, even when the process stalls between journaling a request and waiting on it', async () => {
    // CI once recorded waitedMs 24 for after_ms 30: the delay was counted from the journal event,
    // and a loaded machine descheduled the process before the service stamped the request
    const { service } = setup();
    const script = scriptApprovals(service, 's1', [{ request: 1, approve: true, afterMs: 30 }]);
    try {
      spin(20); // the loop journaled approval_requested, then lost the CPU before it asked
      const asked = ask(service, 's1', 'c1');
      const requestedAt = service.pending('s1')[0].requestedAt.getTime();
      const verdict = await asked;
      expect(verdict).toEqual(expect.objectContaining({ approved: true, by: 'script' }));
      expect(verdict.waitedMs).toBeGreaterThanOrEqual(30);
      expect(Date.now() - requestedAt).toBeGreaterThanOrEqual(verdict.waitedMs); // the wait counts from requestedAt
    } finally {
      script.stop();
    }
  });

  it('stops answering once stopped: a pending request then waits out its timeout', async () => {
    const { service } = setup();
    const script = scriptApprovals(service, 's1', [{ request: 1, approve: true, afterMs: 20 }]);
    const verdict = service.request(
      { sessionId: 's1', callId: 'c1', name: 'write_file', args: {}, queuePosition: 1, totalInQueue: 1 },
      { timeoutMs: 60, signal: new AbortController().signal },
    );
    script.stop();
    expect(await verdict).toEqual(expect.objectContaining({ approved: false, by: 'timeout' }));
  });
});
