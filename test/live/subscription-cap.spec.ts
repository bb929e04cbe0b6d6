// A connection may follow at most 100 unfinished sessions: a finished session whose events have all
// been delivered (session_finished is always the last) gives up its slot when a new subscription
// needs one, so a viewer paging through finished sessions is never refused.
import { eventually, startApiApp, type ApiApp, expectJson } from '../support/api-app';
import { LiveClient } from '../support/live-client';

const CAP = 100;
const SCRIPTED = { prompt: 'Say done.', script: [{ content: 'done' }] };

describe('live gateway: the subscription cap counts unfinished sessions', () => {
  let a: ApiApp;
  let c: LiveClient | undefined;

  beforeAll(async () => {
    a = await startApiApp();
  });
  afterAll(async () => {
    c?.close();
    await a?.close();
  });

  it('takes a subscription past the cap once the subscribed sessions have finished', async () => {
    const ids: string[] = [];
    for (let batch = 0; ids.length < CAP + 5; batch++) {
      const started = await Promise.all(
        Array.from(
          { length: 15 },
          async () => (await expectJson<{ sessionId: string }>(await a.call('POST', '/api/sessions', SCRIPTED), 201)).sessionId,
        ),
      );
      ids.push(...started);
    }
    await eventually(
      async () => {
        const page = await expectJson<{ total: number }>(await a.call('GET', '/api/sessions?status=finished&limit=1'), 200);
        return page.total >= ids.length ? true : undefined;
      },
      'every session to finish',
      120_000,
    );

    c = new LiveClient(a.base);
    await c.connected();
    const client = c;
    const finished = (id: string) => client.events(id).some((e) => e.type === 'session_finished');
    for (const id of ids.slice(0, CAP)) {
      expect(await client.ask('session:subscribe', { sessionId: id })).toEqual(expect.objectContaining({ ok: true, status: 'finished' }));
    }
    await client.until(() => ids.slice(0, CAP).every(finished), 'session_finished of every subscribed session', 60_000);
    // past the cap: the finished sessions' slots are free
    for (const id of ids.slice(CAP)) {
      expect(await client.ask('session:subscribe', { sessionId: id })).toEqual(expect.objectContaining({ ok: true, sessionId: id }));
      await client.until(() => finished(id), `session_finished of ${id}`);
    }
    // and a session subscribed again from the start is followed again
    expect(await client.ask('session:subscribe', { sessionId: ids[0], afterSeq: -1 })).toEqual(expect.objectContaining({ ok: true }));
  });
});
