// LOUPE_LIVE_TICK_MS reaches the live feed: a followed session's feed waits one tick before it goes
// out. A subscriber caught up at an approval sees nothing of what the approval set off sooner than a
// tick after it: every item offered after the approval opens (or joins) a tick that ends at least a
// tick later. A lower bound, so a slow machine only widens the margin.
import type { LiveEvent } from '../../src/live/live-wire';
import { APPROVAL_SESSION, eventually, startApiApp, type ApiApp } from '../support/api-app';
import { LiveClient } from '../support/live-client';

const TICK_MS = 1_000;

type BatchItem = [string, Record<string, unknown>];

describe('the live feed tick (LOUPE_LIVE_TICK_MS)', () => {
  let a: ApiApp;
  let c: LiveClient | undefined;

  beforeAll(async () => {
    a = await startApiApp({ LOUPE_LIVE_TICK_MS: String(TICK_MS) });
  });
  afterAll(async () => {
    c?.close();
    await a?.close();
  });

  it('sends what an approval set off no sooner than one tick after it', async () => {
    const res = await a.call('POST', '/api/sessions', APPROVAL_SESSION);
    expect(res.status).toBe(201);
    const { sessionId } = (await res.json()) as { sessionId: string };
    const pending = await eventually(async () => {
      const list = (await (await a.call('GET', `/api/approvals?session=${sessionId}`)).json()) as Array<{ callId: string }>;
      return list.length ? list : undefined;
    }, 'the approval');

    const client = (c = new LiveClient(a.base));
    const batches: Array<{ at: number; items: BatchItem[] }> = [];
    // before the client's own onAny, which wakes `until`
    client.socket.prependAny((event: string, body: { items: BatchItem[] }) => {
      if (event === 'session:batch') batches.push({ at: Date.now(), items: body.items });
    });
    const eventsOf = (items: BatchItem[]) =>
      items.filter(([event]) => event === 'session:events').flatMap(([, body]) => body.events as LiveEvent[]);
    // backfilled from Postgres or live, in batches or not: every event the subscriber has
    const seen = () => [...client.events(sessionId), ...batches.flatMap((b) => eventsOf(b.items))];
    await client.connected();
    expect(await client.ask('session:subscribe', { sessionId, batch: true })).toEqual(expect.objectContaining({ ok: true }));
    await client.until(() => seen().some((e) => e.type === 'approval_requested'), 'the subscriber caught up to the approval');
    const told = () =>
      client.of('tool:approval_required').length > 0 || batches.some((b) => b.items.some(([e]) => e === 'tool:approval_required'));
    await client.until(told, 'the approval told');

    const approvedAt = Date.now();
    const approved = await a.call('POST', `/api/approvals/${pending[0].callId}`, { approved: true });
    expect(approved.status).toBe(200);
    await client.until(() => seen().some((e) => e.type === 'session_finished'), 'session_finished');

    const after = batches.filter((b) => b.at >= approvedAt);
    const finishedIn = after.find((b) => eventsOf(b.items).some((e) => e.type === 'session_finished'))!;
    expect(finishedIn).toBeDefined();
    // with the default tick (30 ms) the first of them arrives within a few ms of the approval
    expect(after[0].at - approvedAt).toBeGreaterThanOrEqual(TICK_MS);
  });
});
