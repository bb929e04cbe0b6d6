// Queued runs (`loupe eval --queue`) spread over `loupe worker` processes: the throughput of a whole
// run of N single-turn trials with W = 1, 2 and 4 workers, each with its own stand-in (its own
// process, the worker's OLLAMA_HOST) whose model serves P requests at once at about L ms a turn, and
// P slots, as a ratio of the ideal W·P/L trials per second. The measured span is the run's own, as
// recorded: from its enqueueing to the statistics written by the worker that finished its last trial
// (`loupe eval status`: startedAt → finishedAt); the workers are started and idle before it.
// Everything runs on this machine (workers, stand-ins and Postgres share its cores), on a fresh
// LOUPE_HOME unless DATABASE_URL is set. LOUPE_BENCH_QUEUE_BASELINE=<another built checkout> runs
// that checkout's CLI the same way (its own workers, its own home), run for run interleaved with
// this one's, and prints its figures beside: a before/after in one sitting on a shared machine.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { startStandin } from './child-standin';
import { median, range, type BenchFigure } from './run-benchmarks';
import { checkTurnLength, writeSingleTurnScenario } from './single-turn';
import { removeBenchHome } from './fresh-home';

const ROOT = path.join(__dirname, '..', '..');

export interface QueueBenchOptions {
  workers?: number[];
  parallel?: number;
  latencyMs?: number;
  /** trials per run = waves × W × P */
  waves?: number;
  runs?: number;
}

/** A built checkout whose CLI runs the workers and the runs, with its own home. */
interface Checkout {
  label: string;
  root: string;
  env: NodeJS.ProcessEnv;
}

function loupe(at: Checkout, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(at.root, 'bin', 'loupe.js'), ...args], {
      cwd: at.root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/** A worker, resolved once it has registered (it takes trials from then on). */
function startWorker(at: Checkout, name: string, slots: number, ollamaHost: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(at.root, 'bin', 'loupe.js'), 'worker', '--slots', String(slots), '--name', name], {
    cwd: at.root,
    env: { ...at.env, OLLAMA_HOST: ollamaHost, LOUPE_LOG_LEVEL: 'log' },
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

interface RunTimes {
  spanMs: number;
  passed: number;
  /** enqueued → first trial started */
  firstMs: number;
  /** last verdict → run closed (statistics written) */
  closeMs: number;
}

/** Where a run's span went, from its rows (the database the checkout's CLI names). */
async function runPhases(at: Checkout, runId: string): Promise<{ firstMs: number; closeMs: number }> {
  const url = at.env.DATABASE_URL || (await loupe(at, ['db', 'url'], at.env)).out.trim();
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const { rows } = await db.query<{ first: number; close: number }>(
      `SELECT extract(epoch FROM min(t.started_at) - r.started_at) * 1000 AS first, extract(epoch FROM r.finished_at - max(t.finished_at)) * 1000 AS close
         FROM eval_runs r JOIN eval_trials t ON t.run_id = r.id WHERE r.id = $1 GROUP BY r.id`,
      [runId],
    );
    return { firstMs: Number(rows[0].first), closeMs: Number(rows[0].close) };
  } finally {
    await db.end();
  }
}

/** One queued run: its span as recorded, and how its trials ended. */
async function queuedRun(at: Checkout, file: string, trials: number, ollamaHost: string): Promise<RunTimes> {
  // the enqueuing process names a live run (trials for workers with an Ollama); it sends nothing there itself
  const env = { ...at.env, OLLAMA_HOST: ollamaHost };
  const run = await loupe(at, ['eval', file, '--queue', '--wait', '--json', '-t', String(trials)], env);
  if (run.code !== 0) throw new Error(`bench queue: eval --queue --wait exited ${run.code}: ${run.err.slice(-2_000)}`);
  const report = JSON.parse(run.out) as { runId: string; summary: { passed: number; trials: number } };
  const status = await loupe(at, ['eval', 'status', report.runId, '--json'], env);
  const s = JSON.parse(status.out) as { startedAt: string; finishedAt: string | null };
  if (!s.finishedAt) throw new Error(`bench queue: run ${report.runId} has no finish time`);
  return {
    spanMs: Date.parse(s.finishedAt) - Date.parse(s.startedAt),
    passed: report.summary.passed,
    ...(await runPhases(at, report.runId)),
  };
}

export async function benchQueue(options: QueueBenchOptions = {}): Promise<BenchFigure[]> {
  const parallel = options.parallel ?? 2;
  const latencyMs = options.latencyMs ?? 200;
  const waves = options.waves ?? 8;
  const runs = options.runs ?? 5;
  const counts = options.workers ?? [1, 2, 4];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-queue-'));
  const checkout = (label: string, root: string): Checkout => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    if (!env.DATABASE_URL) env.LOUPE_HOME = path.join(dir, `home${label ? `-${label.trim()}` : ''}`);
    return { label, root, env };
  };
  const baseline = process.env.LOUPE_BENCH_QUEUE_BASELINE;
  if (baseline && process.env.DATABASE_URL)
    throw new Error('bench queue: LOUPE_BENCH_QUEUE_BASELINE needs the embedded Postgres (a home per checkout)');
  const checkouts = [checkout('', ROOT), ...(baseline ? [checkout('baseline ', path.resolve(baseline))] : [])];
  const file = writeSingleTurnScenario(dir, { id: 'bench/queued-single-turn', parallel, latencyMs });
  const standins = await Promise.all(Array.from({ length: Math.max(...counts) }, () => startStandin(file)));
  const turnMs = await checkTurnLength(standins[0].url, latencyMs);
  const figures: BenchFigure[] = [];
  try {
    for (const w of counts) {
      const workers: ChildProcess[] = [];
      try {
        for (const at of checkouts)
          workers.push(
            ...(await Promise.all(
              standins.slice(0, w).map((s, i) => startWorker(at, `bench-${at.label.trim() || 'this'}-${w}-${i}`, parallel, s.url)),
            )),
          );
        const trials = waves * w * parallel;
        const results = new Map<Checkout, RunTimes[]>(checkouts.map((at) => [at, []]));
        // warm-up: each worker's first trial, the stand-ins' first load
        for (const at of checkouts) await queuedRun(at, file, trials, standins[0].url);
        for (let i = 0; i < runs; i++)
          for (const at of checkouts) results.get(at)!.push(await queuedRun(at, file, trials, standins[0].url));
        const ideal = (w * parallel * 1_000) / latencyMs;
        for (const at of checkouts) {
          const r = results.get(at)!;
          if (r.some((x) => x.passed !== trials)) throw new Error(`bench queue ${at.label}W=${w}: trials failed`);
          const rates = r.map((x) => (trials * 1_000) / x.spanMs / ideal);
          figures.push({
            name: `${at.label}queue.throughput W=${w} P=${parallel} L=${latencyMs}ms N=${trials}`,
            value: Math.round(median(rates) * 1_000) / 1_000,
            unit: 'ratio of ideal W·P/L',
            note: `range ${range(rates)}; ${(median(rates) * ideal).toFixed(2)} trials/s vs ideal ${ideal.toFixed(2)}; run ${Math.round(median(r.map((x) => x.spanMs)))} ms enqueued → closed, of which ${Math.round(median(r.map((x) => x.firstMs)))} ms to the first trial and ${Math.round(median(r.map((x) => x.closeMs)))} ms from the last verdict to the statistics; a stand-in turn ${turnMs.toFixed(0)} ms; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}; median of ${runs}`,
          });
        }
      } finally {
        await Promise.all(workers.map(stopWorker));
      }
    }
    return figures;
  } finally {
    await Promise.all(standins.map((s) => s.stop()));
    // each checkout's home with its data, which as root lies outside it (fresh-home.ts)
    for (const at of checkouts) if (at.env.LOUPE_HOME) await removeBenchHome(at.env.LOUPE_HOME);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
