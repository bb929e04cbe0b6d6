// Messages are backfilled by their idx as events are by seq (issue 41): a page reads a session,
// messages are recorded, and only then does it subscribe. The subscribe is held, deterministically,
// until the session has journaled everything after the read (a second client sees its end); the
// page's subscription, given the last idx it read, still receives every later message once and in
// order, where a subscription without it (what the viewer did before) receives none of them.
import { JournalService } from '../../src/journal/journal.service';
import { APPROVAL_SESSION, expectJson, startApiApp, type ApiApp } from '../support/api-app';
import { LiveClient } from '../support/live-client';

interface Message {
  idx: number;
  role: string;
  content: string;
}
interface Detail {
  messages: Message[];
  messagesUpTo: number;
  pendingApprovals: Array<{ callId: string }>;
  iterations: Array<{ traceUrl: string | null }>;
  traceUrl: string | null;
  verdict: unknown;
}

describe('message backfill over the WebSocket', () => {
  let a: ApiApp;
  const clients: LiveClient[] = [];
  const client = async () => {
    const c = new LiveClient(a.base);
    clients.push(c);
    await c.connected();
    return c;
  };
  const messagesOf = (c: LiveClient, sessionId: string) =>
    c
      .of('session:message')
      .filter((b) => b.sessionId === sessionId)
      .map((b) => b.message as Message);

  beforeAll(async () => {
    a = await startApiApp();
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await a?.close();
  });

  it('a message recorded between the read and the subscribe reaches the page, once and in order', async () => {
    const { sessionId } = await expectJson<{ sessionId: string }>(await a.call('POST', '/api/sessions', APPROVAL_SESSION), 201);
    const watcher = await client();
    await watcher.ask('session:subscribe', { sessionId });
    await watcher.until(() => watcher.of('tool:approval_required').find((p) => p.sessionId === sessionId), 'the approval request');

    // the page reads the session while the loop waits on a person
    const read = await expectJson<Detail>(await a.call('GET', `/api/sessions/${sessionId}`), 200);
    expect(read.pendingApprovals).toHaveLength(1);
    expect(read.messagesUpTo).toBe(Math.max(...read.messages.map((m) => m.idx)));
    // no trace template configured: no links; a session that is no trial: no verdict
    expect(read.traceUrl).toBeNull();
    expect(read.iterations.every((i) => i.traceUrl === null)).toBe(true);
    expect(read.verdict).toBeNull();

    // …and before it subscribes, the call is approved and the session records the rest and ends
    await expectJson(await a.call('POST', `/api/approvals/${read.pendingApprovals[0].callId}`, { approved: true }), 200);
    await watcher.until(() => watcher.events(sessionId).some((e) => e.type === 'session_finished'), 'the session to end');

    const page = await client();
    const stale = await client(); // subscribes as the viewer did before: events only
    expect(await page.ask('session:subscribe', { sessionId, afterSeq: -1, afterMessageIdx: read.messagesUpTo })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    expect(await stale.ask('session:subscribe', { sessionId, afterSeq: -1 })).toEqual(expect.objectContaining({ ok: true }));

    await a.app.get(JournalService).flush();
    const final = await expectJson<Detail>(await a.call('GET', `/api/sessions/${sessionId}`), 200);
    const later = final.messages.filter((m) => m.idx > read.messagesUpTo);
    expect(later.length).toBeGreaterThanOrEqual(2); // the tool result, the final answer (and any injected message)
    await page.until(() => messagesOf(page, sessionId).length >= later.length, 'the later messages');
    await stale.until(() => stale.events(sessionId).some((e) => e.type === 'session_finished'), 'the stale client to catch up');
    await page.until(() => page.events(sessionId).some((e) => e.type === 'session_finished'), 'the page to catch up');

    const got = messagesOf(page, sessionId);
    expect(got.map((m) => m.idx)).toEqual(later.map((m) => m.idx));
    expect(got.map((m) => [m.role, m.content])).toEqual(later.map((m) => [m.role, m.content]));
    expect(got.at(-1)!.content).toBe('I read notes.txt and wrote hello.txt.');
    // what the page read plus what it was sent is the transcript, whole
    expect([...read.messages, ...got].map((m) => m.idx)).toEqual(final.messages.map((m) => m.idx));
    // without the idx the later messages are lost: this is the hole the page had
    expect(messagesOf(stale, sessionId)).toEqual([]);
  });

  it('a subscribe naming the last message it has gets nothing twice, and rejects a bad idx', async () => {
    const { sessionId } = await expectJson<{ sessionId: string }>(
      await a.call('POST', '/api/sessions', { prompt: 'Say hi.', script: [{ content: 'Hi.' }] }),
      201,
    );
    const watcher = await client();
    await watcher.ask('session:subscribe', { sessionId });
    await watcher.until(() => watcher.events(sessionId).some((e) => e.type === 'session_finished'), 'the session to end');
    await a.app.get(JournalService).flush();
    const read = await expectJson<Detail>(await a.call('GET', `/api/sessions/${sessionId}`), 200);

    const page = await client();
    await page.ask('session:subscribe', { sessionId, afterMessageIdx: read.messagesUpTo });
    await page.until(() => page.events(sessionId).some((e) => e.type === 'session_finished'), 'the events');
    // the session's messages (all read already) are not sent again; from -1 they all come
    expect(messagesOf(page, sessionId)).toEqual([]);
    const fresh = await client();
    await fresh.ask('session:subscribe', { sessionId, afterMessageIdx: -1 });
    await fresh.until(() => messagesOf(fresh, sessionId).length === read.messages.length, 'every message');
    expect(messagesOf(fresh, sessionId).map((m) => m.idx)).toEqual(read.messages.map((m) => m.idx));

    const bad = await page.ask('session:subscribe', { sessionId, afterMessageIdx: -2 });
    expect(bad).toEqual(expect.objectContaining({ ok: false, status: 400 }));
  });
});
