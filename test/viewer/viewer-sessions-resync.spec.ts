// The session list after the server dropped what it held for it, in a real headless Chromium: more
// session rows change at once than a list subscriber may have waiting (live-feed.service's
// subscribeList), so the server drops them and sends sessions:resync, and the page reads its list
// again. The page is filtered, so a new matching session reaches it only by that re-read: the live
// path adds new rows to the unfiltered first page alone.
import type { Browser, Page, WebSocket } from 'playwright-core';
import { JournalService } from '../../src/journal/journal.service';
import { API_TOKEN, startApiApp, type ApiApp } from '../support/api-app';
import { describeWithBrowser, launchBrowser, viewerPage } from '../support/browser';
import { testSessionRecorder } from '../support/test-session-recorder';

/** more than a list subscriber may have waiting (KeyedSubscription capacity 1000 in subscribeList) */
const BURST = 1_200;
const MODEL = 'resync-probe:1b';

/** the next text frame the page's socket receives that `match` accepts */
const frame = (ws: WebSocket, match: (text: string) => boolean) =>
  ws.waitForEvent('framereceived', { predicate: (f) => typeof f.payload === 'string' && match(f.payload), timeout: 20_000 });

describeWithBrowser('the session list after a sessions:resync (headless Chromium)', () => {
  let a: ApiApp;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    a = await startApiApp();
    browser = await launchBrowser();
    page = await viewerPage(browser, problems);
  });
  afterAll(async () => {
    await browser?.close();
    await a?.close();
  });

  it('reads the list again when the server says it dropped what it held', async () => {
    const journal = a.app.get(JournalService);
    const socket = page.waitForEvent('websocket');
    await page.goto(`${a.base}/#token=${API_TOKEN}&/?model=${encodeURIComponent(MODEL)}`);
    const ws = await socket;
    // the list's one request with an acknowledgement is sessions:subscribe (socket.io: 43<id>[answer])
    await frame(ws, (t) => /^43\d+\[\{"ok":true\}\]$/.test(t));
    await page.waitForSelector('text=0 sessions');

    // a matching session, in Postgres: live, the filtered page leaves it out
    const probe = testSessionRecorder(journal, { model: MODEL });
    await journal.flush();

    const resync = frame(ws, (t) => t.startsWith('42["sessions:resync"'));
    for (let i = 0; i < BURST; i++) testSessionRecorder(journal, { model: 'burst:1b' });
    expect(JSON.parse((await resync).payload.toString().slice(2))).toEqual(['sessions:resync', { reason: 'overflow' }]);

    const row = page.locator(`tr[data-session-id="${probe.sessionId}"]`);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.textContent()).toContain(MODEL);
    expect(await page.locator('table.sessions tbody tr').count()).toBe(1);
    expect(problems).toEqual([]);
  });
});
