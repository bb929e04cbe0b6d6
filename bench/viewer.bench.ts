// The viewer on large records in headless Chromium: the session page with a 1,000-iteration session
// and the run page with a 1,000-trial run, both written straight through the journal into Postgres.
// Figures: median time from navigation to first paint of the page's own content (its heading) and
// to fully rendered (every iteration, or every trial chip, in the DOM), over a few loads.
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { ADMIN_TOKEN } from '../src/admin/admin-auth.guard';
import { configureHttpApp } from '../src/admin/http/configure-http';
import { AppModule } from '../src/app.module';
import type { LoupeConfig } from '../src/config/loupe-config';
import type { JournalEntry } from '../src/journal/journal-entry';
import { JournalService } from '../src/journal/journal.service';
import { chromium as playwright } from 'playwright-core';
import { median, type BenchFigure } from './run-benchmarks';

const N = 1000;

/* eslint-disable @typescript-eslint/no-require-imports -- an ES module package with a CommonJS build, as the viewer tests load it */
const launchBrowser = async () => {
  const chromium = require('@sparticuz/chromium') as { executablePath(): Promise<string>; args: string[] };
  return playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
};
/* eslint-enable @typescript-eslint/no-require-imports */
const LOADS = 5;
const ids = { traceId: '0'.repeat(32), spanId: '0'.repeat(16) };

function sessionEntries(sessionId: string, at: number): JournalEntry[] {
  const t = (ms: number) => new Date(at + ms);
  const out: JournalEntry[] = [];
  const row = {
    ...ids,
    id: sessionId,
    pid: process.pid,
    agent: 'bench',
    model: 'bench:1b',
    status: 'finished' as const,
    terminationReason: 'completed',
    exitCode: 0,
    error: null,
    prompt: 'A long session.',
    councilRole: null,
    trialId: null,
    workspace: null,
    config: { profile: 'loupe' },
    ownerPid: process.pid,
    ownerHost: 'bench',
    iterations: N,
    toolCallCount: N,
    inputTokens: 500 * N,
    outputTokens: 20 * N,
    approvalWaitMs: 0,
    startedAt: t(0),
    finishedAt: t(N * 10 + 5),
  };
  out.push({ kind: 'session', row });
  let seq = 0;
  let idx = 0;
  const event = (iteration: number | null, type: string, payload: Record<string, unknown>, ms: number) =>
    out.push({ kind: 'event', row: { ...ids, sessionId, seq: seq++, iteration, type: type as never, payload, createdAt: t(ms) } });
  const message = (role: string, content: string, iteration: number | null, ms: number, extra: Record<string, unknown> = {}) =>
    out.push({
      kind: 'message',
      row: {
        ...ids,
        sessionId,
        idx: idx++,
        role,
        kind: 'text',
        content,
        toolCalls: null,
        toolCallId: null,
        toolName: null,
        thinking: null,
        iteration,
        compactedAt: null,
        createdAt: t(ms),
        ...extra,
      },
    });
  event(null, 'session_started', { model: 'bench:1b' }, 0);
  message('user', 'A long session.', null, 0);
  for (let i = 0; i < N; i++) {
    const ms = i * 10 + 1;
    const callId = `call-${i}`;
    event(i, 'iteration_started', {}, ms);
    out.push({
      kind: 'iteration',
      row: {
        ...ids,
        sessionId,
        idx: i,
        model: 'bench:1b',
        status: 'finished',
        outcome: 'tool_calls',
        finishReason: 'stop',
        toolCallSource: 'native',
        toolCallCount: 1,
        inputTokens: 500,
        outputTokens: 20,
        estimatedPromptTokens: 480,
        contextMessages: 2 + 2 * i,
        wallMs: 8,
        firstTokenMs: 3,
        loadMs: 0,
        prefillMs: 2,
        decodeMs: 4,
        serverQueueMs: 0,
        approvalWaitMs: 0,
        startedAt: t(ms),
        finishedAt: t(ms + 8),
      },
    });
    message('assistant', '', i, ms + 4, { toolCalls: [{ id: callId, function: { name: 'read_file', arguments: { path: `f${i}.txt` } } }] });
    out.push({
      kind: 'tool_call',
      row: {
        ...ids,
        sessionId,
        id: callId,
        iteration: i,
        name: 'read_file',
        arguments: { path: `f${i}.txt` },
        status: 'completed',
        result: `line ${i}`,
        error: null,
        durationMs: 1,
        createdAt: t(ms + 5),
        finishedAt: t(ms + 6),
      },
    });
    message('tool', `line ${i}`, i, ms + 6, { toolCallId: callId, toolName: 'read_file' });
  }
  message('assistant', 'Done.', N - 1, N * 10 + 4);
  event(null, 'session_finished', { reason: 'completed' }, N * 10 + 5);
  return out;
}

function runEntries(runId: string, at: number): JournalEntry[] {
  const scenarios = 50;
  const configs = ['profile=loupe', 'profile=corvid', 'profile=opencode', 'profile=dexto'];
  const trials = N / scenarios / configs.length; // 5 per cell
  const out: JournalEntry[] = [];
  const run = {
    id: runId,
    status: 'finished' as const,
    startedAt: new Date(at),
    finishedAt: new Date(at + 60_000),
    scenarioCount: scenarios,
    trialCount: N,
    passed: 0,
    failed: 0,
    unjudged: 0,
    errored: 0,
    options: { backend: 'standin', trials },
    loupeVersion: null,
    ownerPid: process.pid,
    ownerHost: 'bench',
    config: { mode: 'scripted', models: ['bench:1b'], configurations: configs.map((key) => ({ key, overrides: {} })), jobCount: N },
    statistics: null,
  };
  let n = 0;
  for (let s = 0; s < scenarios; s++)
    for (const configKey of configs)
      for (let k = 1; k <= trials; k++) {
        const failed = (s * 7 + k) % 9 === 0;
        if (failed) run.failed++;
        else run.passed++;
        out.push({
          kind: 'eval_trial',
          row: {
            id: randomUUID(),
            runId,
            scenarioId: `bench/scenario-${String(s).padStart(2, '0')}`,
            scenarioTitle: 't',
            scenarioFile: 'f.yaml',
            scenarioHash: 'h',
            model: 'bench:1b',
            trialIndex: k,
            sessionId: null,
            status: failed ? 'failed' : 'passed',
            expectations: [],
            failedExpectations: failed ? [{ expectation: 'termination: completed', passed: false, detail: 'was max_iterations' }] : [],
            iterations: 3,
            eventCount: 20,
            durationMs: 100,
            error: null,
            startedAt: new Date(at + n * 10),
            finishedAt: new Date(at + n * 10 + 100),
            configKey,
            config: {},
            mode: 'scripted',
            metadata: { profile: configKey.slice('profile='.length) },
            outcome: {
              terminationReason: failed ? 'max_iterations' : 'completed',
              tokens: { input: 900, output: 40 },
              latency: { firstTokenMs: 5, workingMs: 90 },
            },
            invariantViolations: [],
            attempt: 1,
            replacedBy: null,
            workerId: null,
          },
        });
        n++;
      }
  return [{ kind: 'eval_run', row: run }, ...out];
}

export async function benchViewer(config: LoupeConfig): Promise<BenchFigure[]> {
  const app = await NestFactory.create(AppModule.forRoot(config, { http: true }), { logger: ['error'] });
  configureHttpApp(app, config);
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const token = app.get<string>(ADMIN_TOKEN);
  const journal = app.get(JournalService);
  const sessionId = randomUUID();
  const runId = randomUUID();
  for (const e of [...sessionEntries(sessionId, Date.now() - 3_600_000), ...runEntries(runId, Date.now() - 3_600_000)]) journal.append(e);
  await journal.flush(120_000);

  const browser = await launchBrowser();
  // one page for all: this Chromium runs as a single process, and closing its last page ends it
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const figures: BenchFigure[] = [];
  try {
    const measure = async (route: string, heading: string, done: string) => {
      const paint: number[] = [];
      const full: number[] = [];
      for (let i = 0; i <= LOADS; i++) {
        await page.goto('about:blank');
        const started = Date.now();
        await page.goto(`${url}/#token=${token}&${route}`);
        await page.waitForSelector(heading);
        const painted = Date.now();
        await page.waitForFunction(
          ([q, n]) =>
            (globalThis as unknown as { document: { querySelectorAll(q: string): { length: number } } }).document.querySelectorAll(q)
              .length >= n,
          [done, N] as const,
          { timeout: 60_000, polling: 'raf' },
        );
        const rendered = Date.now();
        if (i === 0) continue; // the first load warms the server's caches and the browser's
        paint.push(painted - started);
        full.push(rendered - started);
      }
      return { paint: median(paint), full: median(full) };
    };
    // the reads the pages make, apart from the browser: where a slow page's time goes
    const read = async (route: string) => {
      const times: number[] = [];
      for (let i = 0; i <= LOADS; i++) {
        const started = Date.now();
        const res = await fetch(`${url}${route}`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (i) times.push(Date.now() - started);
      }
      return median(times);
    };
    figures.push(
      {
        name: `GET /api/sessions/:id (${N} iterations)`,
        value: await read(`/api/sessions/${sessionId}`),
        unit: 'ms',
        note: 'the session page reads it first',
      },
      { name: `GET /api/eval-runs/:id/view (${N} trials)`, value: await read(`/api/eval-runs/${runId}/view`), unit: 'ms' },
    );
    const session = await measure(`/session/${sessionId}`, `h1:has-text("Session ${sessionId.slice(0, 8)}")`, '.iteration');
    const run = await measure(`/run/${runId}`, `h1:has-text("Run ${runId.slice(0, 8)}")`, '.matrix [data-trial-id]');
    figures.push(
      {
        name: `session page, ${N} iterations: first paint`,
        value: session.paint,
        unit: 'ms',
        note: `median of ${LOADS} loads; target < 1000`,
      },
      { name: `session page, ${N} iterations: fully rendered`, value: session.full, unit: 'ms', note: 'every iteration in the DOM' },
      { name: `run page, ${N} trials: first paint`, value: run.paint, unit: 'ms', note: `median of ${LOADS} loads; target < 1000` },
      { name: `run page, ${N} trials: fully rendered`, value: run.full, unit: 'ms', note: 'every trial chip in the DOM' },
    );
  } finally {
    await browser.close();
    await app.close();
  }
  return figures;
}
