// The session page while the model writes, in a real headless Chromium: a stand-in model slow
// enough (tokens per second) that its reply streams for a few seconds. The page shows the text as
// it streams — reasoning in its own block, the reply under it — before the message is recorded,
// and the recorded message then takes the streaming block's place. Screenshot in test-output/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { mergeCatalog } from '../../src/eval/standin-catalog-merge';
import { StandinServer } from '../../src/standin/standin-server';
import { API_TOKEN, startApiApp, type ApiApp } from '../support/api-app';
import { describeWithBrowser, launchBrowser, viewerPage } from '../support/browser';

/** the little of the page's DOM the checks below read (this project's typings have no DOM lib) */
interface PageDocument {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): Iterable<{ textContent: string | null }>;
}

const OUT = path.join(__dirname, '..', '..', 'test-output');
const MODEL = 'gpt-oss:20b'; // a harmony model: it always reasons, so thinking streams too
const THINKING = 'The user wants a short poem about the sea. I will write four calm lines.';
const REPLY = 'Grey waves fold over, slow and wide; the gulls lean into wind; the harbour lights come on; the tide goes out again.';

describeWithBrowser('session viewer: streamed text (headless Chromium)', () => {
  let a: ApiApp;
  let standin: StandinServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(OUT, { recursive: true });
    standin = new StandinServer({
      catalog: mergeCatalog([
        {
          name: MODEL,
          family: 'gptoss',
          parameterSize: '20.9B',
          capabilities: ['completion', 'tools', 'thinking'],
          contextLength: 131_072,
          // about 80 tokens at 20 per second: the reply streams for some four seconds
          tokensPerSecond: 20,
        },
      ]),
      script: {
        turns: {
          [MODEL]: [
            // waits for approval, so the page is following before the reply streams
            { toolCalls: [{ name: 'write_file', arguments: { path: 'gate.txt', content: 'go' } }] },
            { thinking: THINKING, content: REPLY },
          ],
        },
      },
    });
    const { url } = await standin.start(0);
    a = await startApiApp({ OLLAMA_HOST: url, OLLAMA_LOCAL_HOST: url });
    browser = await launchBrowser();
    page = await viewerPage(browser, problems);
  });
  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await a?.close();
    await standin?.stop();
  });

  it('shows the reply as it streams, thinking apart, then the recorded message in its place', async () => {
    const res = await a.call('POST', '/api/sessions', {
      prompt: 'Write gate.txt, then a short poem about the sea.',
      model: MODEL,
      permissions: { tools: { write_file: 'ask' } },
    });
    expect(res.status).toBe(201);
    const { sessionId } = (await res.json()) as { sessionId: string };
    await page.goto(`${a.base}/#token=${API_TOKEN}&/session/${sessionId}`);
    const card = page.locator('.approval-card');
    await card.waitFor();
    await page.waitForSelector('.connection[data-state="live"]');
    await card.locator('button.approve').click();

    // reasoning streams first, in its own block, before any reply text
    const thinking = await page.waitForFunction(
      () => {
        const document = (globalThis as unknown as { document: PageDocument }).document;
        const t = document.querySelector('.typing .typing-thinking')?.textContent ?? '';
        return t.length > 0 && !document.querySelector('.typing .typing-content') ? t : false;
      },
      undefined,
      { timeout: 30_000 },
    );
    expect(THINKING.startsWith(String(await thinking.jsonValue()))).toBe(true);

    // then part of the reply, while the recorded message is not there yet (checked in one look at the page)
    const partial = await page.waitForFunction(
      (reply: string) => {
        const document = (globalThis as unknown as { document: PageDocument }).document;
        const t = document.querySelector('.typing .typing-content')?.textContent ?? '';
        const recorded = [...document.querySelectorAll('.transcript .message.role-assistant')].some((m) =>
          (m.textContent ?? '').includes(reply),
        );
        return t.length > 0 && !recorded ? t : false;
      },
      REPLY,
      { timeout: 30_000 },
    );
    const seen = String(await partial.jsonValue());
    expect(REPLY.startsWith(seen)).toBe(true);
    expect(seen.length).toBeLessThan(REPLY.length);
    expect(await page.locator('.typing').getAttribute('data-iteration')).toBe('1');
    expect(await page.locator('.typing .typing-thinking').textContent()).toBe(THINKING);
    await page.screenshot({ path: path.join(OUT, 'viewer-streaming.png'), fullPage: true });

    // the recorded message replaces the streaming block
    await page.locator('.transcript .message.role-assistant', { hasText: REPLY }).waitFor();
    await page.waitForSelector('.typing', { state: 'detached' });
    await page.waitForSelector('#session-status:has-text("finished")');
  });
});
