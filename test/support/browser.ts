// A real headless Chromium for the viewer tests: @sparticuz/chromium ships a binary that runs
// without system packages, driven by playwright-core. Where it cannot start, the tests are skipped
// with the reason printed — unless LOUPE_REQUIRE_SYSTEM_TOOLS names chromium (or all): then they fail.
import { spawnSync } from 'node:child_process';
import type Chromium from '@sparticuz/chromium' with { 'resolution-mode': 'require' };
import { chromium as playwright, type Browser, type Page } from 'playwright-core';

// an ES module package with a CommonJS build: required (this file is CommonJS), typed from its declarations
// eslint-disable-next-line @typescript-eslint/no-require-imports
const chromium = require('@sparticuz/chromium') as typeof Chromium;

const PROBE = `
const chromium = require('@sparticuz/chromium');
const { chromium: pw } = require('playwright-core');
(async () => {
  const b = await pw.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
  await b.close();
})().catch((e) => { process.stderr.write(String(e && e.message || e)); process.exit(1); });`;

/** undefined when a browser starts here; otherwise why not (checked once, in a child process, before the tests are declared) */
function browserProblem(): string | undefined {
  const r = spawnSync(process.execPath, ['-e', PROBE], { encoding: 'utf8', timeout: 60_000, cwd: process.cwd() });
  if (r.error) return r.error.message;
  if (r.status !== 0) return (r.stderr || `exit ${r.status}`).split('\n')[0];
  return undefined;
}

export async function launchBrowser(): Promise<Browser> {
  return playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
}

/** A viewer page whose script and console errors are collected into `problems` (each test then asserts there are none). */
export async function viewerPage(browser: Browser, problems: string[], height = 1000): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height } });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  return page;
}

/** `describe` when headless Chromium starts; a skip with a printed reason otherwise (a failure under LOUPE_REQUIRE_SYSTEM_TOOLS). */
export function describeWithBrowser(title: string, fn: () => void): void {
  const problem = browserProblem();
  if (!problem) return describe(title, fn);
  const required = (process.env.LOUPE_REQUIRE_SYSTEM_TOOLS ?? '').split(',').map((s) => s.trim());
  if (required.includes('chromium') || required.includes('all')) {
    describe(title, () => {
      it('needs headless Chromium', () => {
        throw new Error(`headless Chromium did not start but LOUPE_REQUIRE_SYSTEM_TOOLS requires it: ${problem}`);
      });
    });
    return;
  }
  process.stderr.write(`skipping "${title}": headless Chromium did not start (${problem})\n`);
  describe.skip(title, fn);
}
