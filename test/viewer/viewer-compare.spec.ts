// The compare page in a real headless Chromium: two runs ticked in the runs list open the API's
// comparison (each side's pass rate, the difference, the test, p, Holm p and BH q, verdicts by each,
// the gate); two profiles of one run open from the run page. The API refuses half a profile pair.
// Screenshot: test-output/compare.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { API_TOKEN, eventually, startApiApp, type ApiApp } from '../support/api-app';
import { describeWithBrowser, launchBrowser, viewerPage } from '../support/browser';
import { decideNext, gatedScenarios, startRun } from '../support/gated-run';

const OUT = path.join(__dirname, '..', '..', 'test-output');

describeWithBrowser('compare page (headless Chromium)', () => {
  let a: ApiApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  const problems: string[] = [];

  const finished = (runId: string) =>
    eventually(
      async () => {
        const d = (await (await a.call('GET', `/api/eval-runs/${runId}`)).json()) as { run: { status: string; statistics: unknown } };
        return d.run.status === 'finished' && d.run.statistics ? d : undefined;
      },
      'the run',
      60_000,
    );

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

  it('compares two runs ticked in the runs list, with p, Holm p and BH q per row', async () => {
    // baseline: every write approved; candidate: every write rejected (its file checks fail)
    const seen = new Set<string>();
    const base = await startRun(a, { scenarios: ['gated.yaml', 'quick.yaml'], set: ['profile=loupe'], trials: 4, seed: 7 });
    for (let i = 0; i < 4; i++) await decideNext(a, true, seen);
    await finished(base);
    const cand = await startRun(a, { scenarios: ['gated.yaml', 'quick.yaml'], set: ['profile=loupe'], trials: 4, seed: 7 });
    for (let i = 0; i < 4; i++) await decideNext(a, false, seen);
    await finished(cand);

    await page.goto(`${a.base}/#token=${API_TOKEN}&/runs`);
    await page.locator(`tr[data-run-id="${base}"] input.pick`).check();
    await page.locator(`tr[data-run-id="${cand}"] input.pick`).check();
    await page.click('#compare-runs');
    await page.waitForSelector('h1:has-text("Compare")');
    const api = (await (await a.call('GET', `/api/eval-runs/compare?a=${base}&b=${cand}`)).json()) as {
      comparison: {
        family: number;
        cells: Array<{ key: string; holm: number | null; q: number | null; verdict: string | null }>;
        gate: { fires: boolean };
      };
    };
    expect(await page.locator('#compare-summary').textContent()).toContain(`family of ${api.comparison.family} tests`);
    // the failing cell: its row carries the API's corrected p-values and verdict
    const cell = api.comparison.cells.find((c) => c.key.startsWith('t/gated'))!;
    const row = page.locator(`tr.compare-row[data-level="cell"][data-key="${cell.key}"]`);
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('100% 4/4');
    expect(text).toContain('0% 0/4');
    expect(text).toContain('-100 pts');
    expect(await row.locator('td.holm').textContent()).toBe(
      cell.holm === null ? '–' : cell.holm < 0.001 ? cell.holm.toExponential(1) : cell.holm.toFixed(3),
    );
    expect(await row.locator('td.q').textContent()).not.toBe('–');
    expect(await row.getAttribute('data-verdict')).toBe(cell.verdict ?? '');
    expect(await page.locator('#gate').textContent()).toBe(
      api.comparison.gate.fires ? 'gate fires: a regression survives Holm' : 'gate holds',
    );
    expect(await page.locator('tr.compare-row[data-level="run"]').count()).toBe(1);
    await page.screenshot({ path: path.join(OUT, 'compare.png'), fullPage: true });
  });

  it('compares two profiles of one run from its run page; the API wants both profiles or neither', async () => {
    const runId = await startRun(a, { scenarios: ['quick.yaml'], set: ['profile=loupe,opencode'], trials: 2 });
    await finished(runId);
    await page.goto(`${a.base}/#token=${API_TOKEN}&/run/${runId}`);
    await page.locator('a.compare-profiles').click();
    await page.waitForSelector('h1:has-text("Compare")');
    expect(await page.locator('.facts-line').first().textContent()).toMatch(/under loupe.*under opencode/);
    // matched on scenario and model with the profile taken out of the configuration
    expect(await page.locator('#compare-summary').textContent()).toContain('1 matched cells');
    expect(await page.locator('tr.compare-row[data-level="cell"]').count()).toBe(1);

    const half = await a.call('GET', `/api/eval-runs/compare?a=${runId}&b=${runId}&profileA=loupe`);
    expect(half.status).toBe(400);
    expect(await half.text()).toContain('profileB');
  });
});
