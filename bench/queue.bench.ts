// Queued runs (`loupe eval --queue`) spread over `loupe worker` processes: the throughput of a whole
// run of N single-turn trials with W = 1, 2 and 4 workers, each with its own stand-in (its own
// process, the worker's OLLAMA_HOST) whose model serves P requests at once at about L ms a turn, and
// P slots, as a ratio of the ideal W·P/L trials per second. The measured span is the run's own, as
// recorded: from its enqueueing to the statistics written by the worker that finished its last trial
// (`loupe eval status`: startedAt → finishedAt); the workers are started and idle before it.
// Everything runs on this machine (workers, stand-ins and Postgres share its cores), on a fresh
// LOUPE_HOME unless DATABASE_URL is set.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { startStandin } from './child-standin';
import { median, type BenchFigure } from './run-benchmarks';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'loupe.js');
const MODEL = 'bench:1b';
const ANSWER = 'The task is done.';
const WORDS = ANSWER.split(' ').length;

export interface QueueBenchOptions {
  workers?: number[];
  parallel?: number;
  latencyMs?: number;
  /** trials per run = waves × W × P */
  waves?: number;
  runs?: number;
}

function loupe(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/** A worker, resolved once it has registered (it takes trials from then on). */
function startWorker(name: string, slots: number, ollamaHost: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'worker', '--slots', String(slots), '--name', name], {
    cwd: ROOT,
    env: { ...env, OLLAMA_HOST: ollamaHost, LOUPE_LOG_LEVEL: 'log' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (new RegExp(`worker ${name} \\(`).test(err)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`worker ${name} exited (${code}): ${err.slice(-2_000)}`)));
  });
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** One queued run: its span as recorded, and how its trials ended. */
async function queuedRun(file: string, trials: number, env: NodeJS.ProcessEnv): Promise<{ spanMs: number; passed: number }> {
  const run = await loupe(['eval', file, '--queue', '--wait', '--json', '-t', String(trials)], env);
  if (run.code !== 0) throw new Error(`bench queue: eval --queue --wait exited ${run.code}: ${run.err.slice(-2_000)}`);
  const report = JSON.parse(run.out) as { runId: string; summary: { passed: number; trials: number } };
  const status = await loupe(['eval', 'status', report.runId, '--json'], env);
  const s = JSON.parse(status.out) as { startedAt: string; finishedAt: string | null };
  if (!s.finishedAt) throw new Error(`bench queue: run ${report.runId} has no finish time`);
  return { spanMs: Date.parse(s.finishedAt) - Date.parse(s.startedAt), passed: report.summary.passed };
}

export async function benchQueue(options: QueueBenchOptions = {}): Promise<BenchFigure[]> {
  const parallel = options.parallel ?? 2;
  const latencyMs = options.latencyMs ?? 200;
  const waves = options.waves ?? 8;
  const runs = options.runs ?? 3;
  const counts = options.workers ?? [1, 2, 4];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-queue-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (!env.DATABASE_URL) env.LOUPE_HOME = path.join(dir, 'home');
  const file = path.join(dir, 'single-turn.yaml');
  fs.writeFileSync(
    file,
    stringify({
      id: 'bench/queued-single-turn',
      title: 'single-turn trial',
      spec: 'bench',
      prompt: 'Say done.',
      model: MODEL,
      catalog: [
        {
          name: MODEL,
          family: 'llama',
          parameter_size: '1.0B',
          capabilities: ['completion', 'tools'],
          parallel,
          tokens_per_second: (WORDS * 1_000) / latencyMs,
        },
      ],
      script: [{ content: ANSWER }],
      expect: [{ termination: 'completed' }],
      success: [{ final_answer: { contains: 'done' } }],
    }),
  );
  const standins = await Promise.all(Array.from({ length: Math.max(...counts) }, () => startStandin(file)));
  const figures: BenchFigure[] = [];
  try {
    // the enqueuing process names a live run (trials for workers with an Ollama); it sends nothing there itself
    const runEnv = { ...env, OLLAMA_HOST: standins[0].url };
    for (const w of counts) {
      const workers = await Promise.all(standins.slice(0, w).map((s, i) => startWorker(`bench-${w}-${i}`, parallel, s.url, env)));
      try {
        const trials = waves * w * parallel;
        await queuedRun(file, trials, runEnv); // warm-up: each worker's first trial, the stand-ins' first load
        const results: Array<{ spanMs: number; passed: number }> = [];
        for (let i = 0; i < runs; i++) results.push(await queuedRun(file, trials, runEnv));
        if (results.some((r) => r.passed !== trials)) throw new Error(`bench queue W=${w}: trials failed`);
        const ideal = (w * parallel * 1_000) / latencyMs;
        const achieved = median(results.map((r) => (trials * 1_000) / r.spanMs));
        figures.push({
          name: `queue.throughput W=${w} P=${parallel} L=${latencyMs}ms N=${trials}`,
          value: Math.round((achieved / ideal) * 1_000) / 1_000,
          unit: 'ratio of ideal W·P/L',
          note: `${achieved.toFixed(2)} trials/s vs ideal ${ideal.toFixed(2)}; run ${Math.round(median(results.map((r) => r.spanMs)))} ms enqueued → closed; ${os.cpus().length} cores; median of ${runs}`,
        });
      } finally {
        await Promise.all(workers.map(stopWorker));
      }
    }
    return figures;
  } finally {
    await Promise.all(standins.map((s) => s.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
