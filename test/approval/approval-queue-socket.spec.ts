// The approval queue as a person at the viewer meets it (mcp-agent-technical-spec.md §5), over a
// real socket.io connection to the real app: the calls of one reply are asked one at a time —
// only one waits for a decision at any moment, each `tool:approval_required` carries its place
// and the queue's size — a rejection skips only its call, and the results go back in call order.
// These are the checks that kill the approval mutants of scripts/mutants.js.
// covers: mcp-agent-technical-spec#step-1, mcp-agent-technical-spec#step-2, mcp-agent-technical-spec#step-3
// covers: mcp-agent-technical-spec#step-5
import { ApprovalService } from '../../src/approval/approval.service';
import { startApiApp, type ApiApp } from '../support/api-app';
import { LiveClient } from '../support/live-client';

const CALLS = [
  { name: 'write_file', arguments: { path: 'a.txt', content: 'alpha' } },
  { name: 'write_file', arguments: { path: 'b.txt', content: 'beta' } },
  { name: 'write_file', arguments: { path: 'c.txt', content: 'gamma' } },
];

/** one reply with three writes, each waiting for a person; then the answer */
const session = (profile: string) => ({
  prompt: 'Write a.txt, b.txt and c.txt.',
  profile,
  permissions: { tools: { write_file: 'ask' } },
  script: [{ tool_calls: CALLS }, { content: 'I wrote a.txt and c.txt; b.txt was refused.' }],
});

describe('approval queue over the WebSocket', () => {
  let a: ApiApp;
  const clients: LiveClient[] = [];
  beforeAll(async () => {
    a = await startApiApp();
  });
  afterEach(() => clients.splice(0).forEach((c) => c.close()));
  afterAll(async () => {
    await a?.close();
  });

  // mcp-agent runs the approved calls in parallel, loupe one after another: the queue is the same
  it.each(['mcp-agent', 'loupe'])(
    '%s: asks one call at a time with its place, skips a rejection, returns results in call order',
    async (profile) => {
      const c = new LiveClient(a.base);
      clients.push(c);
      await c.connected();
      const res = await a.call('POST', '/api/sessions', session(profile));
      expect(res.status).toBe(201);
      const { sessionId } = (await res.json()) as { sessionId: string };
      expect(await c.ask('session:subscribe', { sessionId })).toEqual(expect.objectContaining({ ok: true }));
      const approvals = a.app.get(ApprovalService);

      const asked: Array<Record<string, unknown>> = [];
      for (let k = 0; k < CALLS.length; k++) {
        // a session that ends first never asks: say so at once rather than wait out the probe
        const finished = () => c.events(sessionId).some((e) => e.type === 'session_finished');
        const next = await c.until(
          () => c.of('tool:approval_required')[k] ?? (finished() ? 'finished' : undefined),
          `approval request ${k + 1}`,
        );
        expect(next).not.toBe('finished');
        const request = next as Record<string, unknown>;
        // while this request waits, no other call of the reply has been put to anyone
        expect(approvals.pending(sessionId).map((p) => p.callId)).toEqual([request.callId]);
        expect(c.of('tool:approval_required')).toHaveLength(k + 1);
        asked.push(request);
        const approved = k !== 1;
        expect(
          await c.ask('tool:approval', { callId: request.callId, approved, ...(approved ? {} : { reason: 'b.txt is protected' }) }),
        ).toEqual(expect.objectContaining({ ok: true }));
      }
      expect(asked.map((r) => [r.name, (r.args as { path: string }).path, r.queuePosition, r.totalInQueue])).toEqual([
        ['write_file', 'a.txt', 1, 3],
        ['write_file', 'b.txt', 2, 3],
        ['write_file', 'c.txt', 3, 3],
      ]);

      await c.until(() => c.events(sessionId).some((e) => e.type === 'session_finished'), 'session_finished');
      const events = c.events(sessionId);
      // the journal's requests carry the same places: the wire and the record agree
      expect(events.filter((e) => e.type === 'approval_requested').map((e) => [e.payload.queuePosition, e.payload.totalInQueue])).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
      ]);
      // each decision comes before the next request: one at a time
      expect(events.filter((e) => e.type === 'approval_requested' || e.type === 'approval_decided').map((e) => e.type)).toEqual([
        'approval_requested',
        'approval_decided',
        'approval_requested',
        'approval_decided',
        'approval_requested',
        'approval_decided',
      ]);
      // results (the refused one as an error) go back in the order the model wrote the calls
      const ids = asked.map((r) => r.callId);
      const results = events.filter((e) => e.type === 'tool_result' || e.type === 'tool_error');
      expect(results.map((e) => [e.payload.id, e.type, e.payload.status])).toEqual([
        [ids[0], 'tool_result', 'ok'],
        [ids[1], 'tool_error', 'denied'],
        [ids[2], 'tool_result', 'ok'],
      ]);
      expect(
        c
          .of('tool:output')
          .map((o) => o.callId)
          .sort(),
      ).toEqual([ids[0], ids[2]].sort());
    },
  );
});
