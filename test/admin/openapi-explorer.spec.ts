// The API explorer in a real headless Chromium: opened from the viewer's nav with the tab's token
// (in the fragment, gone from the address bar once read), it loads the document with the token and
// calls a route with it; opened bare, it says how to get a token. Screenshot: test-output/api-explorer.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { API_TOKEN, startApiApp, type ApiApp } from '../support/api-app';
import { describeWithBrowser, launchBrowser } from '../support/browser';

const OUT = path.join(__dirname, '..', '..', 'test-output');

describeWithBrowser('API explorer (headless Chromium)', () => {
  let a: ApiApp;
  let browser: Browser;
  let viewer: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(OUT, { recursive: true });
    a = await startApiApp();
    browser = await launchBrowser();
    viewer = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  });
  afterAll(async () => {
    await browser?.close();
    await a?.close();
  });

  it("opens from the viewer's nav with the tab's token and calls a route with it", async () => {
    await viewer.goto(`${a.base}/#token=${API_TOKEN}`);
    await viewer.waitForSelector('h1:has-text("Sessions")');
    const [explorer] = await Promise.all([viewer.context().waitForEvent('page'), viewer.click('#api-docs')]);
    explorer.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await explorer.setViewportSize({ width: 1400, height: 1000 });
    // the document came with the token: its operations are listed
    await explorer.waitForSelector('.opblock-tag-section');
    await explorer.waitForSelector('#operations-events-EventCatalogueController_catalogue');
    expect(explorer.url()).not.toContain(API_TOKEN);
    expect(await explorer.locator('#loupe-token-missing').count()).toBe(0);

    const op = explorer.locator('#operations-events-EventCatalogueController_catalogue');
    await op.locator('.opblock-summary').click();
    await op.locator('button:has-text("Try it out")').click();
    const [response] = await Promise.all([
      explorer.waitForResponse((r) => r.url().endsWith('/api/events/catalogue')),
      op.locator('button:has-text("Execute")').click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toBe(`Bearer ${API_TOKEN}`);
    await op.locator('.live-responses-table .response-col_status:has-text("200")').waitFor();
    await explorer.screenshot({ path: path.join(OUT, 'api-explorer.png'), fullPage: false });
    expect(problems).toEqual([]);
  });

  it('opened without a token, says where to get one and the document stays closed', async () => {
    // the viewer's tab with its token forgotten (closing pages can end this single-process Chromium)
    const bare = viewer;
    await bare.evaluate(() => (globalThis as unknown as { sessionStorage: { clear(): void } }).sessionStorage.clear());
    const documentAnswer = bare.waitForResponse((r) => r.url().endsWith('/api/docs-json'));
    await bare.goto(`${a.base}/api/docs`);
    expect((await documentAnswer).status()).toBe(401);
    expect(await bare.locator('#loupe-token-missing').textContent()).toMatch(/open the explorer from the viewer/);
  });
});
