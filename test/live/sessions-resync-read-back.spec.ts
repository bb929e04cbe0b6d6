// A session-list subscriber told sessions:resync reads its list again at once (the viewer does): that
// read must find the rows whose updates were dropped. Here the journal writes only when asked (its
// interval and batch far beyond the test), so a resync sent as soon as the buffer overflowed reaches
// the client before any of the dropped rows is in Postgres, and the re-read misses them.
import { JournalService } from '../../src/journal/journal.service';
import { expectJson, startApiApp, type ApiApp } from '../support/api-app';
import { LiveClient } from '../support/live-client';
import { testSessionRecorder } from '../support/test-session-recorder';

/** more than a list subscriber may have waiting (KeyedSubscription capacity 1000 in subscribeList) */
const BURST = 1_200;

describe('the session list re-read after sessions:resync', () => {
  let a: ApiApp;
  let client: LiveClient;
  beforeAll(async () => {
    a = await startApiApp({ LOUPE_JOURNAL_FLUSH_MS: '600000', LOUPE_JOURNAL_MAX_BATCH: '100000' });
  });
  afterAll(async () => {
    client?.close();
    await a?.close();
  });

  it('finds every row whose update was dropped', async () => {
    const journal = a.app.get(JournalService);
    client = new LiveClient(a.base);
    await client.connected();
    expect(await client.ask('sessions:subscribe', {})).toEqual({ ok: true });

    // the probe's row goes first, so the overflow drops its update; it is only in the journal's queue
    const probe = testSessionRecorder(journal, { model: 'resync-probe:1b' });
    for (let i = 0; i < BURST; i++) testSessionRecorder(journal, { model: 'resync-burst:1b' });
    await client.until(() => client.of('sessions:resync').length > 0 || undefined, 'sessions:resync');
    expect(client.of('sessions:resync')[0]).toEqual({ reason: 'overflow' });

    // read as the viewer does on resync, with nothing else waited for
    const [probed, burst] = await Promise.all([
      expectJson<{ total: number; items: Array<{ id: string }> }>(await a.call('GET', '/api/sessions?model=resync-probe:1b'), 200),
      expectJson<{ total: number }>(await a.call('GET', '/api/sessions?model=resync-burst:1b&limit=1'), 200),
    ]);
    // the premise: the probe reached this client only by the re-read
    expect(client.of('session:update').some((u) => (u.session as { id: string }).id === probe.sessionId)).toBe(false);
    expect(probed.items.map((s) => s.id)).toEqual([probe.sessionId]);
    expect(burst.total).toBe(BURST);
  });
});
