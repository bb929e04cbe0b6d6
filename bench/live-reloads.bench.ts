// A live run as a real Ollama would serve it: the built CLI against a stand-in (in this process)
// whose 3 models each take 2 s to load, over 2 scenarios at num_ctx 2048 and 4096, 2 trials each,
// -c 2. Figures: reloads inside measured turns (chat requests with messages that performed a load,
// read from the stand-in's request log: a warm-up's load request carries no messages) and the run's
// wall time. Only the CLI and the stand-in are used, so the same file measures another build's
// client: LOUPE_BENCH_BIN=/path/to/old/bin/loupe.js npm run bench -- live-reloads.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { StandinServer } from '../src/standin/standin-server';
import type { StandinRequestRecord } from '../src/standin/standin-request-log';
import { median, range, type BenchFigure } from './run-benchmarks';

const ROOT = path.join(__dirname, '..', '..');
const BIN = process.env.LOUPE_BENCH_BIN ?? path.join(ROOT, 'bin', 'loupe.js');
const MODELS = ['bench-a:1b', 'bench-b:1b', 'bench-c:1b'];
const NUM_CTX = [2048, 4096];
const LOAD_MS = 2_000;
const TRIALS = 2;
const CONCURRENCY = 2;
const ANSWER = 'The task is done.';

interface LiveRun {
  wallMs: number;
  durationMs: number | null;
  measuredReloads: number;
  loads: number;
  passed: number;
  trials: number;
}

function writeScenarios(dir: string): void {
  for (const numCtx of NUM_CTX)
    fs.writeFileSync(
      path.join(dir, `ctx-${numCtx}.yaml`),
      [
        `id: bench/live-ctx-${numCtx}`,
        'title: single turn',
        'spec: bench',
        'prompt: Say done.',
        'config:',
        `  num_ctx: ${numCtx}`,
        'script:',
        `  - content: ${ANSWER}`,
        'success:',
        '  - final_answer: { contains: done }',
      ].join('\n'),
    );
}

const hasMessages = (r: StandinRequestRecord) => ((r.body as { messages?: unknown[] } | undefined)?.messages?.length ?? 0) > 0;
/** the load a request performed, as the stand-in logs it */
const performedLoad = (r: StandinRequestRecord) => Boolean((r as StandinRequestRecord & { load?: unknown }).load);

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ wallMs: number; code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const clean = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined));
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ wallMs: performance.now() - started, code, out, err }));
  });
}

async function oneRun(dir: string): Promise<LiveRun> {
  // a fresh server each run: every model starts unloaded, as on a host that has not served them yet
  const standin = new StandinServer({
    catalog: MODELS.map((name) => ({
      name,
      family: 'llama',
      parameterSize: '1.0B',
      capabilities: ['completion', 'tools'],
      contextLength: 32_768,
      parallel: CONCURRENCY,
      loadMs: LOAD_MS,
    })),
    script: { turns: { '*': [{ content: ANSWER }] }, loop: true },
  });
  const { url } = await standin.start(0);
  try {
    const r = await runCli(['eval', dir, '--json', '-m', MODELS.join(','), '-t', String(TRIALS), '-c', String(CONCURRENCY)], {
      OLLAMA_HOST: url,
      OLLAMA_NUM_CTX: undefined,
      OLLAMA_MAX_PARALLEL: String(CONCURRENCY),
    });
    if (r.code !== 0 && r.code !== 1) throw new Error(`bench live-reloads: loupe eval exited ${r.code}: ${r.err.slice(-2_000)}`);
    let report: { durationMs?: number; summary?: { passed: number; trials: number } } = {};
    try {
      report = JSON.parse(r.out) as typeof report;
    } catch {
      throw new Error(`bench live-reloads: unreadable --json output: ${r.err.slice(-1_000)}`);
    }
    const chats = standin.requests.filter((q) => q.path === '/api/chat');
    return {
      wallMs: r.wallMs,
      durationMs: report.durationMs ?? null,
      measuredReloads: chats.filter((q) => hasMessages(q) && performedLoad(q)).length,
      loads: standin.loads.length,
      passed: report.summary?.passed ?? 0,
      trials: report.summary?.trials ?? 0,
    };
  } finally {
    await standin.stop();
  }
}

export async function benchLiveReloads(runs = Number(process.env.LOUPE_BENCH_LIVE_RUNS ?? 3)): Promise<BenchFigure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-live-reloads-'));
  try {
    writeScenarios(dir);
    const results: LiveRun[] = [];
    for (let i = 0; i < runs; i++) results.push(await oneRun(dir));
    const shape = `${MODELS.length} models × ${NUM_CTX.length} num_ctx × ${TRIALS} trials, -c ${CONCURRENCY}, loads ${LOAD_MS / 1000} s`;
    const of = (xs: number[]) => `median of ${runs} (range ${range(xs, 0)})`;
    const reloads = results.map((r) => r.measuredReloads);
    const walls = results.map((r) => r.wallMs);
    const durations = results.map((r) => r.durationMs ?? r.wallMs);
    return [
      { name: 'live-reloads.reloads inside measured turns', value: median(reloads), unit: 'reloads', note: `${shape}; ${of(reloads)}` },
      { name: 'live-reloads.loads in all', value: median(results.map((r) => r.loads)), unit: 'loads', note: 'warm-ups included' },
      { name: 'live-reloads.run wall time', value: Math.round(median(durations)), unit: 'ms (run)', note: of(durations) },
      { name: 'live-reloads.process wall time', value: Math.round(median(walls)), unit: 'ms', note: `incl. start-up; ${of(walls)}` },
      {
        name: 'live-reloads.trials passed',
        value: median(results.map((r) => r.passed)),
        unit: `of ${results[0]?.trials ?? 0}`,
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
