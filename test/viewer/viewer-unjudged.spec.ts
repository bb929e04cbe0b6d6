// Unjudged trials in the viewer (issue 36): a run asked for over the API in which one scenario has no
// check under the profile it runs under. The runs list counts them in their own column, the run page
// says how many of a cell's trials no check applied to, and their chips are neither a pass nor a
// failure. The API's run detail carries the same count.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { API_TOKEN, eventually, startApiApp, type ApiApp } from '../support/api-app';
import { describeWithBrowser, launchBrowser, viewerPage } from '../support/browser';

const scenario = (id: string, success: boolean) => `id: ${id}
title: ${id}
profile: loupe
prompt: Say done.
script:
  - content: Done.
expect:
  - termination: completed
${success ? 'success:\n  - final_answer: { contains: Done }\n' : ''}`;

describeWithBrowser('unjudged trials in the viewer (headless Chromium)', () => {
  let a: ApiApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-viewer-unjudged-'));
    fs.writeFileSync(path.join(dir, 'no-success.yaml'), scenario('t/no-success', false));
    fs.writeFileSync(path.join(dir, 'with-success.yaml'), scenario('t/with-success', true));
    a = await startApiApp({ LOUPE_SCENARIOS_DIR: dir });
    browser = await launchBrowser();
    page = await viewerPage(browser, problems);
  });
  afterAll(async () => {
    await browser?.close();
    await a?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts unjudged trials apart in the runs list, the run page and its trial chips', async () => {
    const started = await a.call('POST', '/api/eval-runs', { scenarios: ['.'], set: ['profile=opencode'], trials: 2 });
    expect(started.status).toBe(202);
    const { runId } = (await started.json()) as { runId: string };
    const detail = await eventually(
      async () => {
        const d = (await (await a.call('GET', `/api/eval-runs/${runId}`)).json()) as {
          run: { status: string; statistics: unknown; passed: number; unjudged: number };
        };
        return d.run.status !== 'running' && d.run.statistics ? d : undefined;
      },
      'the run',
      60_000,
    );
    expect({ passed: detail.run.passed, unjudged: detail.run.unjudged }).toEqual({ passed: 2, unjudged: 2 });

    await page.goto(`${a.base}/#token=${API_TOKEN}&/runs`);
    const row = page.locator('tr', { has: page.locator(`a[href="#/run/${runId}"]`) });
    await row.waitFor();
    const headers = await page.locator('table th').allTextContents();
    const cells = await row.locator('td').allTextContents();
    expect(cells[headers.indexOf('Unjudged')]).toBe('2');
    expect(cells[headers.indexOf('Passed')]).toBe('2');

    await row.locator(`a[href="#/run/${runId}"]`).click();
    await page.locator('td.cell').first().waitFor();
    const unjudgedCell = page.locator('td.cell', { has: page.locator('.unjudged-text') });
    expect(await unjudgedCell.locator('.unjudged-text').textContent()).toBe('2 unjudged');
    expect(await unjudgedCell.locator('.trial-unjudged').count()).toBe(2);
    expect(await page.locator('.trial-passed').count()).toBe(2);
    expect(await page.locator('.facts-line').textContent()).toContain('2 passed, 0 failed, 2 unjudged, 0 errored');
    expect(problems).toEqual([]);
  });
});
