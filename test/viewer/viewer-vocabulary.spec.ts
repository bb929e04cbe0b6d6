// The loop's vocabulary as the viewer shows it, in headless Chromium: a session that loop control
// broke on a repeated error (error_repeat_break: a warning, as loop control cut it off, though the
// word says "error") has its termination coloured with the vocabulary's tone, and its run's cell
// lists the pathology by the vocabulary's label (GET /api/events/vocabulary), not by a copy in web/.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { API_TOKEN, eventually, expectJson, startApiApp, type ApiApp } from '../support/api-app';
import { describeWithBrowser, launchBrowser, viewerPage } from '../support/browser';
import { PATHOLOGY_LABELS, TERMINATION_TONES } from '../../src/journal/events/loop-vocabulary';

// the same call failing the same way three times, other calls between (scenarios/loop-control/error-repeat-break.yaml)
const SCENARIO = `id: vocabulary/error-repeat
title: A call failing the same way is broken
profile: loupe
prompt: Read the settings.
script:
  - tool_calls: [{ name: read_file, arguments: { path: settings.yaml } }]
  - tool_calls: [{ name: write_file, arguments: { path: a.txt, content: a } }]
  - tool_calls: [{ name: read_file, arguments: { path: settings.yaml } }]
  - tool_calls: [{ name: write_file, arguments: { path: b.txt, content: b } }]
  - tool_calls: [{ name: read_file, arguments: { path: settings.yaml } }]
  - content: settings.yaml does not exist.
expect:
  - termination: error_repeat_break
`;

describeWithBrowser("the viewer's loop vocabulary (headless Chromium)", () => {
  let a: ApiApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let runId: string;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-viewer-vocabulary-'));
    fs.writeFileSync(path.join(dir, 'error-repeat.yaml'), SCENARIO);
    a = await startApiApp({ LOUPE_SCENARIOS_DIR: dir });
    ({ runId } = await expectJson<{ runId: string }>(await a.call('POST', '/api/eval-runs', { scenarios: ['.'], trials: 1 }), 202));
    await eventually(
      async () => {
        const d = (await (await a.call('GET', `/api/eval-runs/${runId}`)).json()) as { run: { status: string; statistics: unknown } };
        return d.run.status !== 'running' && d.run.statistics ? true : undefined;
      },
      'the run',
      60_000,
    );
    browser = await launchBrowser();
    page = await viewerPage(browser, problems);
  });
  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await a?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("colours a loop break's termination with the vocabulary's tone", async () => {
    const { items } = await expectJson<{ items: Array<{ id: string }> }>(await a.call('GET', `/api/sessions?run=${runId}`), 200);
    await page.goto(`${a.base}/#token=${API_TOKEN}&/session/${items[0].id}`);
    const termination = page.locator('#session-termination');
    await termination.waitFor();
    expect(await termination.textContent()).toBe('error_repeat_break');
    expect(TERMINATION_TONES.error_repeat_break).toBe('warn');
    expect(await termination.getAttribute('class')).toBe('termination term-warn');
  });

  it("labels the run's pathologies as the vocabulary does", async () => {
    await page.goto(`${a.base}/#/run/${runId}`);
    const item = page.locator('.matrix ul.pathologies li[data-key="error_repeat_break"]');
    await item.waitFor();
    expect(await item.textContent()).toMatch(new RegExp(`^${PATHOLOGY_LABELS.error_repeat_break} 100`));
    expect(await item.getAttribute('title')).toContain(PATHOLOGY_LABELS.error_repeat_break);
  });
});
