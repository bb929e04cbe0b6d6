// The session viewer in a real headless Chromium: the token from the URL fragment, a scripted
// session that waits on an approval followed live, the call approved from the page, the session
// seen to finish, the timeline and transcript checked against what Postgres recorded; the run page
// with its matrix and links into each trial's session. Screenshots go to test-output/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { JournalService } from '../../src/journal/journal.service';
import { API_TOKEN, APPROVAL_SESSION, eventually, startApiApp, type ApiApp } from '../support/api-app';
import { describeWithBrowser, launchBrowser, viewerPage } from '../support/browser';

const OUT = path.join(__dirname, '..', '..', 'test-output');

describeWithBrowser('session viewer (headless Chromium)', () => {
  let a: ApiApp;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(OUT, { recursive: true });
    a = await startApiApp();
    browser = await launchBrowser();
    // one page for all: this Chromium runs as a single process, and closing its last page ends it
    page = await viewerPage(browser, problems);
  });
  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await a?.close();
  });

  it('asks for the token when none is given, and again when it is refused', async () => {
    await page.goto(`${a.base}/`);
    await page.waitForSelector('form.token-form');
    await page.fill('input[name=token]', 'wrong-token');
    await page.click('form.token-form button');
    await page.waitForSelector('text=That token was refused');
    problems.splice(0); // the refused call logs a 401 in the console, as it should
    await page.fill('input[name=token]', API_TOKEN);
    await page.click('form.token-form button');
    await page.waitForSelector('h1:has-text("Sessions")');
  });

  it('follows a session live, approves its call from the page and shows it finished, as recorded', async () => {
    const res = await a.call('POST', '/api/sessions', { ...APPROVAL_SESSION, model: 'qwen3:8b' });
    expect(res.status).toBe(201);
    const { sessionId } = (await res.json()) as { sessionId: string };

    // the list first: the token comes from the fragment and leaves the URL
    await page.goto(`${a.base}/#token=${API_TOKEN}`);
    const row = page.locator(`tr[data-session-id="${sessionId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('qwen3:8b');
    expect(page.url()).not.toContain(API_TOKEN);
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem('loupe.token'),
      ),
    ).toBe(API_TOKEN);
    // the model filter narrows the list (a model no session used: nothing)
    await page.fill('input[name=model]', 'no-such-model');
    await page.click('.filters button');
    await page.waitForSelector('text=0 sessions');

    await page.goto(`${a.base}/#/session/${sessionId}`);
    const card = page.locator('.approval-card');
    await card.waitFor();
    expect(await card.textContent()).toContain('write_file');
    expect(await card.textContent()).toContain('hello.txt');
    await page.locator('[data-kind="tool"]:has-text("waiting for approval")').waitFor();
    await page.waitForSelector('.connection[data-state="live"]');

    await card.locator('button.approve').click();
    await page.waitForSelector('#session-status:has-text("finished")');
    await page.waitForSelector('.approval-card', { state: 'detached' });
    await page.locator('[data-type="session_finished"]').waitFor();

    // what the page shows is what Postgres recorded
    await a.app.get(JournalService).flush();
    const detail = (await (await a.call('GET', `/api/sessions/${sessionId}`)).json()) as {
      session: { terminationReason: string };
      iterations: unknown[];
      toolCalls: Array<{ id: string; name: string; status: string }>;
      messages: Array<{ content: string }>;
    };
    expect(detail.session.terminationReason).toBe('completed');
    const heads = await page.locator('.iteration .iteration-head strong').allTextContents();
    expect(heads.filter((t) => t.startsWith('Iteration'))).toHaveLength(detail.iterations.length);
    const tools = await page
      .locator('[data-kind="tool"]')
      .evaluateAll((els) => els.map((el) => ({ id: el.getAttribute('data-call-id'), text: el.textContent ?? '' })));
    expect(tools.map((t) => t.id)).toEqual(detail.toolCalls.map((c) => c.id));
    expect(tools[0].text).toContain('read_file');
    expect(tools[1].text).toMatch(/write_file.*allow by person after/);
    expect(tools.every((t) => /\d+ ms/.test(t.text))).toBe(true);
    await page.locator('[data-kind="slot"]:has-text("slot acquired after")').waitFor();
    const transcript = await page.locator('.transcript .message').allTextContents();
    expect(transcript).toHaveLength(detail.messages.length);
    expect(transcript.at(-1)).toContain('I read notes.txt and wrote hello.txt.');
    expect(transcript.join('\n')).toContain('greeting: hello');
    await page.screenshot({ path: path.join(OUT, 'viewer-session.png'), fullPage: true });
  });
  it('rejects a call from the page: the tool entry says denied by a person, and the session goes on to its end', async () => {
    const res = await a.call('POST', '/api/sessions', APPROVAL_SESSION);
    const { sessionId } = (await res.json()) as { sessionId: string };
    await page.goto(`${a.base}/#token=${API_TOKEN}&/session/${sessionId}`);
    const card = page.locator('.approval-card');
    await card.waitFor();
    await card.locator('button.reject').click();
    await page.waitForSelector('#session-status:has-text("finished")');
    await page.locator('[data-kind="tool"]:has-text("deny by person")').waitFor();
    expect(await page.locator('.approval-card').count()).toBe(0);
    const detail = (await (await a.call('GET', `/api/sessions/${sessionId}`)).json()) as {
      toolCalls: Array<{ name: string; status: string }>;
    };
    expect(detail.toolCalls.find((c) => c.name === 'write_file')?.status).toBe('rejected');
  });

  it('shows a nudge on the timeline and stripped hallucinated output as evidence in the transcript', async () => {
    const res = await a.call('POST', '/api/sessions', {
      prompt: 'Read notes.txt and then config.json, and tell me the port.',
      profile: 'loupe',
      files: { 'notes.txt': 'The port is in config.json.\n', 'config.json': '{ "port": 8080 }' },
      script: [
        { tool_calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { content: 'Now reading config.json.\n<<tool_output>>\n{ "port": 1234 }\n<</tool_output>>\nThe port is 1234.' },
        { tool_calls: [{ name: 'read_file', arguments: { path: 'config.json' } }] },
        { content: 'The port is 8080.' },
      ],
    });
    expect(res.status).toBe(201);
    const { sessionId } = (await res.json()) as { sessionId: string };
    await page.goto(`${a.base}/#token=${API_TOKEN}&/session/${sessionId}`);
    // this session's page, not the one the last test left open (the hash changes within one document)
    await page.waitForSelector(`h1:has-text("Session ${sessionId.slice(0, 8)}")`);
    await page.waitForSelector('#session-status:has-text("finished")');
    const nudge = page.locator('[data-type="mid_chain_nudge"]');
    await nudge.waitFor();
    expect(await nudge.getAttribute('data-kind')).toBe('nudge');
    expect(await page.locator('[data-type="hallucination_stripped"]').getAttribute('data-kind')).toBe('hallucination');
    const evidence = page.locator('.transcript .message.stripped');
    // what the model wrote, its made-up output included, and what the loop kept of it
    expect(await evidence.locator('pre.evidence').textContent()).toContain('<<tool_output>>\n{ "port": 1234 }');
    expect(await evidence.textContent()).toContain('kept:Now reading config.json.');
    // the evidence sits after the reply of its iteration, before the nudge message that followed
    const roles = await page.locator('.transcript .message .message-head strong').allTextContents();
    expect(roles.indexOf('stripped')).toBeGreaterThan(roles.indexOf('assistant'));
    await page.screenshot({ path: path.join(OUT, 'viewer-hallucination.png'), fullPage: true });
  });

  it('shows a run as a matrix with intervals and links into each trial session', async () => {
    const started = await a.call('POST', '/api/eval-runs', { scenarios: ['approval/rejection-stops.yaml'], trials: 2 });
    expect(started.status).toBe(202);
    const { runId } = (await started.json()) as { runId: string };
    await eventually(
      async () => {
        const res = await a.call('GET', `/api/eval-runs/${runId}`);
        expect(res.status).toBe(200); // from the 202 on: the run is recorded
        const d = (await res.json()) as { run: { status: string; statistics: unknown } };
        return d.run.status === 'finished' && d.run.statistics ? d : undefined;
      },
      'the run',
      60_000,
    );

    await page.goto(`${a.base}/#token=${API_TOKEN}&/runs`);
    await page.locator(`a[href="#/run/${runId}"]`).click();
    const cell = page.locator('td.cell');
    await cell.waitFor();
    expect(await page.locator('.matrix th.scenario').allTextContents()).toEqual(['approval/rejection-stops']);
    const text = await cell.textContent();
    expect(text).toContain('100%');
    expect(text).toContain('2/2');
    expect(text).toMatch(/\[\d+%–100%\]/);
    await page.screenshot({ path: path.join(OUT, 'viewer-run.png'), fullPage: true });
    const links = cell.locator('a.trial');
    expect(await links.count()).toBe(2);
    const trialSession = (await links.first().getAttribute('href'))!.replace('#/session/', '');
    await links.first().click();
    await page.waitForSelector(`h1:has-text("Session ${trialSession.slice(0, 8)}")`);
    await page.waitForSelector('#session-status:has-text("finished")');
    await page.locator('[data-type="session_finished"]').waitFor();
    // the script's rejection of write_file and the policy's allow of list_files, on the tool entries
    const tools = await page.locator('[data-kind="tool"]').allTextContents();
    expect(tools).toEqual([expect.stringMatching(/list_files.*allow by policy/), expect.stringMatching(/write_file.*deny by script/)]);
    expect(await page.locator('#session-status').textContent()).toBe('finished');
    expect(await page.locator('.facts').textContent()).toContain('permission_rejected');
  });
});
