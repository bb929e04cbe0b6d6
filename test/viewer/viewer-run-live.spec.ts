// The run page and the runs list live in a real headless Chromium: a run started over the API whose
// trials each wait on an approval the test gives, so cells fill in one by one while the page is
// open (no reload): a pass turns its chip green, a rejection makes its cell red with the failed
// check's message on hover; progress and an ETA move; the failures-only filter hides rows that did
// not fail; the runs list shows the run's mode, profiles and trials and a new run appearing live.
// Screenshots: test-output/run-page.png, run-page-live.png, runs-list.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { API_TOKEN, startApiApp, type ApiApp } from '../support/api-app';
import { describeWithBrowser, launchBrowser, viewerPage } from '../support/browser';
import { decideNext, gatedScenarios, startRun } from '../support/gated-run';

const OUT = path.join(__dirname, '..', '..', 'test-output');

describeWithBrowser('run page and runs list, live (headless Chromium)', () => {
  let a: ApiApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  const problems: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(OUT, { recursive: true });
    dir = gatedScenarios();
    a = await startApiApp({ LOUPE_SCENARIOS_DIR: dir });
    browser = await launchBrowser();
    page = await viewerPage(browser, problems, 900);
  });
  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await a?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const chips = (status: string) => page.locator(`.matrix [data-trial-id][data-status="${status}"]`).count();
  // a function, not a string: the page's CSP allows no eval
  const waitChips = (status: string, n: number) =>
    page.waitForFunction(
      ([s, k]) =>
        (globalThis as unknown as { document: { querySelectorAll(q: string): { length: number } } }).document.querySelectorAll(
          `.matrix [data-trial-id][data-status="${s}"]`,
        ).length === k,
      [status, n] as const,
    );

  it('fills in cells as trials finish, with colours, failure reasons on hover, progress, ETA and a failures-only filter', async () => {
    const runId = await startRun(a, { scenarios: ['.'], set: ['profile=loupe,corvid'], trials: 2 });
    await page.goto(`${a.base}/#token=${API_TOKEN}&/run/${runId}`);
    await page.waitForSelector('#run-status:has-text("running")');
    await page.waitForSelector('.connection[data-state="live"]');
    // the same document throughout: what changes comes over the socket
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 41));
    await page.waitForSelector('.matrix [data-status="running"]');
    expect(await chips('passed')).toBeGreaterThanOrEqual(0);
    const passedBefore = await chips('passed');
    expect(await chips('failed')).toBe(0);

    const seen = new Set<string>();
    await decideNext(a, true, seen);
    await waitChips('passed', passedBefore + 1);
    expect(await page.locator('#run-eta').textContent()).toMatch(/^(about \d.* left|under 5 s left)$/);
    expect(await page.locator('#run-progress-text').textContent()).toMatch(/^[1-8] \/ 8 trials$/);

    await decideNext(a, false, seen);
    const red = page.locator('td.cell-failed');
    await red.waitFor();
    expect(await red.locator('.fail-text').textContent()).toBe('1 failed');
    const failedChip = red.locator('.trial-failed');
    const hover = (await failedChip.getAttribute('title'))!;
    expect(hover).toMatch(/failed/);
    expect(hover).toMatch(/✗ .*file/);
    expect(await red.getAttribute('title')).toMatch(/file/);
    // tokens, latency and termination in the cell
    expect(await red.locator('.cell-figures').textContent()).toMatch(/\d+\/\d+ tok/);
    expect(await red.locator('.cell-terms').textContent()).toContain('completed');
    await page.screenshot({ path: path.join(OUT, 'run-page-live.png'), fullPage: true });

    await decideNext(a, true, seen);
    await decideNext(a, true, seen);
    await page.waitForSelector('#run-status:has-text("finished")');
    await page.waitForSelector('#run-progress-text:has-text("8 / 8 trials")');
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(41);
    // t/quick has no check under corvid: its two trials there are unjudged, neither green nor red
    await waitChips('passed', 5);
    expect(await chips('failed')).toBe(1);
    expect(await chips('unjudged')).toBe(2);
    expect(await page.locator('td.cell-unjudged').count()).toBe(1);
    // statistics written at the end: intervals in the cells
    await page.waitForSelector('td.cell .ci');
    expect(await page.locator('.matrix thead th').allTextContents()).toEqual([
      'scenario',
      expect.stringMatching(/ · profile=corvid$/),
      expect.stringMatching(/ · profile=loupe$/),
    ]);
    // full width: the matrix spans the page
    // found and measured in one page script: a live re-render between the two would measure a replaced table (0)
    const width = await page.evaluate(() => {
      const doc = (
        globalThis as unknown as { document: { querySelector(s: string): { getBoundingClientRect(): { width: number } } | null } }
      ).document;
      return doc.querySelector('table.matrix')?.getBoundingClientRect().width ?? 0;
    });
    expect(width).toBeGreaterThan(1300);

    const filter = page.locator('#only-failures');
    await filter.check();
    expect(await page.locator('.matrix tbody tr:not([hidden]) th.scenario').allTextContents()).toEqual(['t/gated']);
    await filter.uncheck();
    expect(await page.locator('.matrix tbody tr:not([hidden]) th.scenario').allTextContents()).toEqual(['t/gated', 't/quick']);
    await page.screenshot({ path: path.join(OUT, 'run-page.png'), fullPage: true });

    // the failed chip leads to its session
    const href = (await failedChip.getAttribute('href'))!;
    expect(href).toMatch(/^#\/session\/[0-9a-f-]{36}$/);
  });

  it('lists runs with mode, models, configurations, profiles, trials and duration, and shows a new run live', async () => {
    await page.goto(`${a.base}/#token=${API_TOKEN}&/runs`);
    const first = page.locator('table.runs tbody tr').first();
    await first.waitFor();
    const headers = await page.locator('table.runs thead th').allTextContents();
    const cells = await first.locator('td').allTextContents();
    const at = (h: string) => cells[headers.indexOf(h)];
    expect(at('Mode')).toBe('scripted');
    expect(at('Profiles')).toBe('corvid, loupe');
    expect(at('Configurations')).toBe('profile=loupe, profile=corvid');
    expect(at('Trials')).toBe('8 / 8');
    expect(at('Failed')).toBe('1');
    expect(at('Duration')).toMatch(/\d/);
    expect(at('Models')).not.toBe('–');

    // a run started while the list is open appears at the top, and finishes there
    await page.waitForSelector('.connection[data-state="live"]');
    const rows = await page.locator('table.runs tbody tr').count();
    const runId = await startRun(a, { scenarios: ['quick.yaml'], trials: 3 });
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await row.waitFor();
    await page.waitForSelector(`tr[data-run-id="${runId}"][data-status="finished"]`);
    expect(await page.locator('table.runs tbody tr').count()).toBe(rows + 1);
    expect(await page.locator('table.runs tbody tr').first().getAttribute('data-run-id')).toBe(runId);
    expect((await row.locator('td').allTextContents())[headers.indexOf('Trials')]).toBe('3 / 3');
    await page.screenshot({ path: path.join(OUT, 'runs-list.png'), fullPage: true });
  });
});
