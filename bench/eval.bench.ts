// The eval as users run it: the built CLI in its own process, on the configured database (the
// embedded Postgres by default). Two figures:
// - wall time of the scripted suite (`loupe eval` over scenarios/, one trial each, -c 1 and -c 4);
// - throughput of a whole `loupe eval` of N single-turn trials against one stand-in (its own
//   process, reached as OLLAMA_HOST) whose model serves P requests at once at about L ms a turn,
//   as a ratio of the ideal P/L trials per second. The run's own duration (planning, trials,
//   statistics, recording) is the measured span; process start-up is reported beside it.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, range, type BenchFigure } from './run-benchmarks';
import { checkTurnLength, startSingleTurnStandin } from './single-turn';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'loupe.js');

export interface EvalBenchOptions {
  /** runs per scripted-suite figure (the median is reported) */
  runs?: number;
  /**
   * runs per throughput figure: a run of a few hundred ms moves by several per cent with the
   * machine's other work, so its median is taken over more runs (their range is printed beside it)
   */
  throughputRuns?: number;
  /** (P, L ms[, waves[, runs]]) for the throughput figure; waves defaults to `waves`, runs to `throughputRuns` */
  pairs?: Array<[parallel: number, latencyMs: number, waves?: number, runs?: number]>;
  /** trials per throughput run = waves × P */
  waves?: number;
}

interface EvalRun {
  wallMs: number;
  durationMs: number;
  passed: number;
  trials: number;
  /** iterations over all trials: one model request each */
  requests: number;
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<EvalRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`loupe ${args.join(' ')} exited ${code}: ${err.slice(-2_000)}`));
      try {
        const j = JSON.parse(out) as {
          durationMs: number;
          summary: { passed: number; trials: number };
          trials: Array<{ iterations: number }>;
        };
        const requests = j.trials.reduce((n, t) => n + t.iterations, 0);
        resolve({ wallMs, durationMs: j.durationMs, passed: j.summary.passed, trials: j.summary.trials, requests });
      } catch (e) {
        reject(new Error(`loupe ${args.join(' ')}: unreadable --json output (${String(e)})`));
      }
    });
  });
}

async function suiteWallTime(runs: number, concurrency: number): Promise<BenchFigure[]> {
  const results: EvalRun[] = [];
  for (let i = 0; i < runs; i++) results.push(await runCli(['eval', 'scenarios', '--json', '-c', String(concurrency)], {}));
  const r = results[0];
  if (results.some((x) => x.passed !== x.trials)) throw new Error('bench eval: the scripted suite did not pass; fix that before timing it');
  const run = median(results.map((x) => x.durationMs));
  return [
    {
      name: `eval.scripted-suite -c ${concurrency}`,
      value: Math.round(run),
      unit: 'ms (run)',
      note: `${r.trials} trials; process wall median ${Math.round(median(results.map((x) => x.wallMs)))} ms incl. start-up; median of ${runs}`,
    },
    // the suite's scenarios are multi-turn scripts with real tools and scripted faults: the run's time per trial
    {
      name: `eval.scripted-suite -c ${concurrency} per trial`,
      value: run / r.trials,
      unit: 'ms/trial',
      note: `${r.requests} model requests`,
    },
  ];
}

async function throughput(parallel: number, latencyMs: number, waves: number, runs: number, dir: string): Promise<BenchFigure> {
  const standin = await startSingleTurnStandin(dir, { id: `bench/throughput-p${parallel}-l${latencyMs}`, parallel, latencyMs });
  const file = standin.file;
  const trials = waves * parallel;
  try {
    // more trials at once than slots, so the provider's limiter (not -c) is what paces the run
    const args = ['eval', file, '--json', '-t', String(trials), '-c', String(parallel * 2)];
    const env = { OLLAMA_HOST: standin.url, OLLAMA_MAX_PARALLEL: String(parallel) };
    const turnMs = await checkTurnLength(standin.url, latencyMs);
    await runCli(args, env); // warm-up: the model's first load, the CLI's caches
    const results: EvalRun[] = [];
    for (let i = 0; i < runs; i++) results.push(await runCli(args, env));
    if (results.some((x) => x.passed !== x.trials || x.requests !== x.trials))
      throw new Error(`bench eval throughput P=${parallel}: trials failed or took more than one request each`);
    const ideal = (parallel * 1_000) / latencyMs;
    const ratios = results.map((x) => (x.trials * 1_000) / x.durationMs / ideal);
    const achieved = median(ratios) * ideal;
    return {
      name: `eval.throughput P=${parallel} L=${latencyMs}ms N=${trials}`,
      value: Math.round((achieved / ideal) * 1_000) / 1_000,
      unit: 'ratio of ideal P/L',
      note: `${achieved.toFixed(2)} trials/s vs ideal ${ideal.toFixed(2)}; run ${Math.round(median(results.map((x) => x.durationMs)))} ms, process wall ${Math.round(median(results.map((x) => x.wallMs)))} ms; median of ${runs} (range ${range(ratios, 3)}); a stand-in turn ${turnMs.toFixed(0)} ms`,
    };
  } finally {
    await standin.stop();
  }
}

export async function benchEval(options: EvalBenchOptions = {}): Promise<BenchFigure[]> {
  const runs = options.runs ?? 3;
  const throughputRuns = options.throughputRuns ?? 7;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-eval-'));
  try {
    const figures = [...(await suiteWallTime(runs, 1)), ...(await suiteWallTime(runs, 4))];
    // six waves are a short run whose start (the first trials' setups) and end (the last verdict's
    // write) weigh on the ratio; sixty waves show the steady state beside it at both latencies of
    // the targets (at 200 ms a run is 12 s, so fewer runs: their range is printed)
    for (const [p, l, w, r] of options.pairs ?? [
      [1, 200],
      [2, 200],
      [4, 200],
      [4, 200, 60, 3],
      [4, 50],
      [4, 50, 60],
    ])
      figures.push(await throughput(p, l, w ?? options.waves ?? 6, r ?? throughputRuns, dir));
    return figures;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
