// The session page and the session list as a researcher reads them (issue 41), in headless
// Chromium: a failed trial's page says it failed — apart from its loop having completed — with each
// check and its message and a link to its run cell; each iteration shows its tokens, first token,
// prefill, decode and slot wait and links to its trace; a message recorded between the page's read
// and its subscribe still appears (the read is held until the session has ended, and every later
// read answers the same stale copy, so only the socket's backfill can bring it); the list shows
// scenario or prompt, profile, run, verdict, iterations and duration, and filters on them.
// Screenshots: test-output/session-page-failed-trial.png, test-output/sessions-list.png.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { API_TOKEN, APPROVAL_SESSION, eventually, expectJson, startApiApp, type ApiApp } from '../support/api-app';
import { describeWithBrowser, launchBrowser, viewerPage } from '../support/browser';
import { TERMINATION_REASONS, TERMINATION_TONES } from '../../src/journal/events/loop-vocabulary';

const OUT = path.join(__dirname, '..', '..', 'test-output');
const TEMPLATE = 'http://grafana.test/explore?trace={traceId}&span={spanId}';

const scenario = (id: string, title: string, wanted: string) => `id: ${id}
title: ${title}
profile: loupe
prompt: Read notes.txt, then say what it says.
workspace:
  files: { notes.txt: "greeting: hello" }
script:
  - tool_calls:
      - name: read_file
        arguments: { path: notes.txt }
  - content: It says hello.
expect:
  - termination: completed
  - tools_used: [read_file]
  - final_answer: { contains: ${wanted} }
`;

interface Detail {
  session: { status: string };
  events: Array<{ type: string }>;
  messages: Array<{ idx: number; content: string }>;
  iterations: Array<{ idx: number; traceId: string; spanId: string; inputTokens: number; outputTokens: number }>;
  verdict: { runId: string; cellKey: string } | null;
}

describeWithBrowser('session page verdict, iteration figures and session list (headless Chromium)', () => {
  let a: ApiApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let runId: string;
  const problems: string[] = [];
  const detail = async (id: string) => expectJson<Detail>(await a.call('GET', `/api/sessions/${id}`), 200);
  const sessionsOf = async (q: string) =>
    (
      await expectJson<{ items: Array<{ id: string; trial: { scenarioId: string } | null }> }>(
        await a.call('GET', `/api/sessions?${q}`),
        200,
      )
    ).items;

  beforeAll(async () => {
    fs.mkdirSync(OUT, { recursive: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-viewer-verdict-'));
    fs.writeFileSync(path.join(dir, 'fails.yaml'), scenario('notes/says-goodbye', 'The note says goodbye', 'goodbye'));
    fs.writeFileSync(path.join(dir, 'passes.yaml'), scenario('notes/says-hello', 'The note says hello', 'hello'));
    a = await startApiApp({ LOUPE_SCENARIOS_DIR: dir, LOUPE_TRACE_URL_TEMPLATE: TEMPLATE });
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

  /**
   * The element's background, looked up and read in one script: the page re-renders its header on a
   * live update, and a locator's evaluate (find, then evaluate) can land on the element just replaced,
   * whose computed style is empty (CI saw "").
   */
  const backgroundOf = (selector: string): Promise<string> =>
    page.evaluate((sel) => {
      const doc = globalThis as unknown as {
        document: { querySelector(s: string): unknown };
        getComputedStyle(e: unknown): { backgroundColor: string };
      };
      const el = doc.document.querySelector(sel);
      return el ? doc.getComputedStyle(el).backgroundColor : `no ${sel}`;
    }, selector);

  it("a failed trial's page: the verdict with each check, apart from the termination, and figures per iteration", async () => {
    const [failed] = await sessionsOf(`run=${runId}&verdict=failed`);
    const d = await detail(failed.id);
    await page.goto(`${a.base}/#token=${API_TOKEN}&/session/${failed.id}`);
    const block = page.locator('.verdict-block');
    await block.waitFor();

    // the loop completed, the trial failed: both said, and nothing green claims success
    expect(await page.locator('#session-status').textContent()).toBe('finished');
    expect(await page.locator('#session-termination').textContent()).toBe('completed');
    // its tone is the vocabulary's (GET /api/events/vocabulary), not a guess from the word
    expect(await page.locator('#session-termination').getAttribute('class')).toBe(`termination term-${TERMINATION_TONES.completed}`);
    expect(await page.locator('#trial-verdict').textContent()).toBe('trial failed');
    const green = 'rgb(220, 252, 231)';
    for (const sel of ['#session-status', '#session-termination']) expect(await backgroundOf(sel)).not.toBe(green);
    expect(await backgroundOf('#trial-verdict')).toBe('rgb(254, 226, 226)');

    const facts = await block.locator('.verdict-facts .fact').allTextContents();
    expect(facts).toEqual(
      expect.arrayContaining([
        expect.stringContaining('notes/says-goodbye'),
        expect.stringContaining(runId.slice(0, 8)),
        expect.stringContaining('notes/says-goodbye · llama3.1:8b · defaults'),
        'profileloupe',
      ]),
    );
    const checks = await block.locator('.check').evaluateAll((els) => els.map((el) => ({ cls: el.className, text: el.textContent })));
    expect(checks).toEqual([
      { cls: 'check check-passed', text: '✓session terminates with completed' },
      { cls: 'check check-passed', text: expect.stringMatching(/^✓.*read_file/) },
      { cls: 'check check-failed', text: '✗final answer contains "goodbye"final answer "It says hello." does not contain "goodbye"' },
    ]);
    expect(await block.locator('a.cell-link').getAttribute('href')).toBe(`#/run/${runId}?cell=${encodeURIComponent(d.verdict!.cellKey)}`);

    // per iteration: tokens in/out, first token, prefill, decode, slot wait, and the trace link
    expect(d.iterations.length).toBe(2);
    for (const it of d.iterations) {
      const figs = page.locator(`.iteration[data-iteration="${it.idx}"] .iteration-figures`);
      expect(await figs.locator('[data-figure=tokens]').textContent()).toBe(`tokens ${it.inputTokens} in / ${it.outputTokens} out`);
      for (const f of ['first-token', 'prefill', 'decode', 'queue'])
        expect(await figs.locator(`[data-figure=${f}]`).textContent()).toMatch(/\d+(\.\d)? (ms|s)$/);
      expect(await figs.locator('a[data-figure=trace]').getAttribute('href')).toBe(
        `http://grafana.test/explore?trace=${it.traceId}&span=${it.spanId}`,
      );
    }
    // the slot is the session's, taken before the loop: its wait is in the header
    expect(await page.locator('.session-head .fact', { hasText: 'slot wait' }).textContent()).toMatch(/^slot wait\d+ ms$/);
    await page.screenshot({ path: path.join(OUT, 'session-page-failed-trial.png'), fullPage: true });

    // the cell link opens the run page
    await block.locator('a.cell-link').click();
    await page.waitForFunction(
      (id) => (globalThis as unknown as { location: { hash: string } }).location.hash.startsWith(`#/run/${id}`),
      runId,
    );
  });

  it('a message recorded between the page read and its subscribe appears without a reload', async () => {
    const { sessionId } = await expectJson<{ sessionId: string }>(await a.call('POST', '/api/sessions', APPROVAL_SESSION), 201);
    const pending = await eventually(async () => (await detail(sessionId)).session && (await pendingCall(sessionId)), 'the approval');
    let stale: string | undefined;
    // hold the page's read: take the answer as it is now, let the session run to its end, then answer —
    // and answer every later read the same, so nothing but the socket can bring what came after
    await page.route(`**/api/sessions/${sessionId}`, async (route) => {
      if (!stale) {
        stale = await (await route.fetch()).text();
        await expectJson(await a.call('POST', `/api/approvals/${pending}`, { approved: true }), 200);
        await eventually(async () => {
          const d = await detail(sessionId);
          return d.events.some((e) => e.type === 'session_finished') ? true : undefined;
        }, 'the session to end');
      }
      await route.fulfill({ status: 200, contentType: 'application/json', body: stale });
    });
    await page.goto(`${a.base}/#/session/${sessionId}`);
    await page.locator('.transcript .message:has-text("I read notes.txt and wrote hello.txt.")').waitFor();
    const read = JSON.parse(stale!) as Detail;
    const final = await detail(sessionId);
    expect(read.messages.length).toBeLessThan(final.messages.length);
    expect(await page.locator('.transcript .message').count()).toBe(final.messages.length);
    await page.waitForSelector('#session-status:has-text("finished")');
    await page.unroute(`**/api/sessions/${sessionId}`);
  });

  it('the session list: scenario or prompt, profile, run, verdict, iterations, duration, and filters on them', async () => {
    await expectJson(
      await a.call('POST', '/api/sessions', { prompt: 'Summarise the quarterly report in one line.', script: [{ content: 'Fine.' }] }),
      201,
    );
    await eventually(
      async () => ((await sessionsOf('verdict=none&status=finished')).length >= 2 ? true : undefined),
      'the ad-hoc sessions',
    );
    await page.goto(`${a.base}/#/`);
    await page.locator('table.sessions tbody tr').first().waitFor();
    const headers = await page.locator('table.sessions th').allTextContents();
    for (const h of ['Scenario / prompt', 'Profile', 'Run', 'Verdict', 'Iterations', 'Duration']) expect(headers).toContain(h);
    const row = (text: string) => page.locator('table.sessions tbody tr', { hasText: text });
    const cells = async (text: string) => {
      const c = await row(text).locator('td').allTextContents();
      return Object.fromEntries(headers.map((h, i) => [h, c[i]]));
    };
    expect(await cells('notes/says-goodbye')).toEqual(
      expect.objectContaining({ Profile: 'loupe', Verdict: 'failed', Iterations: '2', Run: expect.stringContaining(runId.slice(0, 8)) }),
    );
    expect((await cells('notes/says-goodbye')).Duration).toMatch(/\d+(\.\d)? (ms|s)$/);
    expect(await cells('Summarise the quarterly')).toEqual(expect.objectContaining({ Verdict: 'no trial', Run: '–', Profile: 'loupe' }));
    await page.screenshot({ path: path.join(OUT, 'sessions-list.png'), fullPage: true });
    // the termination filter offers every reason of the loop's vocabulary
    expect(await page.locator('datalist#terminations option').evaluateAll((os) => os.map((o) => o.getAttribute('value')))).toEqual([
      ...TERMINATION_REASONS,
    ]);

    const shown = async () =>
      page.locator('table.sessions tbody tr').evaluateAll((rows) => rows.map((r) => r.querySelector('td')?.textContent ?? ''));
    const filter = async (fill: Record<string, string>) => {
      await page.goto(`${a.base}/#/`);
      await page.locator('form.filters').waitFor();
      for (const [name, value] of Object.entries(fill)) {
        const el = page.locator(`form.filters [name=${name}]`);
        if ((await el.evaluate((e) => e.tagName)) === 'SELECT') await el.selectOption(value);
        else await el.fill(value);
      }
      // the list on screen is marked: the one to read is the list drawn after the submit
      await page.locator('table.sessions').evaluate((t) => t.setAttribute('data-stale', ''));
      await page.click('form.filters button[type=submit]');
      await page.locator('table.sessions:not([data-stale])').waitFor();
    };
    await filter({ verdict: 'failed' });
    expect(await shown()).toEqual([expect.stringContaining('notes/says-goodbye')]);
    expect(page.url()).toContain('verdict=failed');
    await filter({ scenario: 'HELLO' });
    expect(await shown()).toEqual([expect.stringContaining('notes/says-hello')]);
    await filter({ prompt: 'quarterly' });
    expect(await shown()).toEqual([expect.stringContaining('Summarise the quarterly')]);
    await filter({ run: runId, profile: 'loupe' });
    expect((await shown()).sort()).toEqual([expect.stringContaining('notes/says-goodbye'), expect.stringContaining('notes/says-hello')]);
    await filter({ minIterations: '2', verdict: 'passed' });
    expect(await shown()).toEqual([expect.stringContaining('notes/says-hello')]);
    await filter({ minDurationMs: '3600' });
    await page.waitForSelector('text=0 sessions');
    // a bad value is refused by the server, by name
    await page.goto(`${a.base}/#/?verdict=green`);
    await page.waitForSelector('.error:has-text("verdict")');
    problems.splice(0); // the refused call logs a 400 in the console, as it should
  });

  async function pendingCall(id: string): Promise<string | undefined> {
    const d = await expectJson<{ pendingApprovals: Array<{ callId: string }> }>(await a.call('GET', `/api/sessions/${id}`), 200);
    return d.pendingApprovals[0]?.callId;
  }
});
