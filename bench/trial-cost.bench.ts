// What one eval trial costs, measured the way a user runs it: the built CLI against an external
// stand-in (OLLAMA_HOST, zero-latency single-turn replies), recording everything.
// - marginal wall time per trial at concurrency 1 and 4: two runs of N1 and N2 trials, each timed from
//   the run's start (its startedAt) to the process's exit (the report printed, the app closed), the
//   difference divided by N2 − N1, so the fixed work cancels out. Process start-up is left out by
//   the timing, not by the difference: it varies by ±250 ms from one process to the next, which
//   moved a figure from the processes' whole wall times by ±2 ms a trial (printed beside it);
// - Postgres CPU per trial beside it (the embedded server's processes, from /proc; n/a with DATABASE_URL);
// - live heap over a 2,000-trial run (in this process, after full collections): it must stay flat;
// - the first run on a fresh LOUPE_HOME, embedded Postgres initialisation included, printed apart;
// - the floor beside the -c 1 figure (trial-floor.ts: a raw HTTP round trip + a COPY of the trial's
//   rows), and the CLI's own CPU per trial (the same difference, from /proc), steadier than wall time.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LoupeConfig } from '../src/config/loupe-config';
import { withAppContext } from '../src/cli/app-context';
import { dataDirFor } from '../src/database/embedded/embedded-postgres';
import { removeBenchHome } from './fresh-home';
import { postgresCpuSeconds } from './postgres-cpu';
import { ScenarioRunner } from '../src/eval/scenario-runner.service';
import { loadScenarios } from '../src/eval/scenario/scenario-loader';
import { BENCH_MODEL, startSingleTurnStandin } from './single-turn';
import { trialFloor } from './trial-floor';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { median, range, type BenchFigure, type BenchSuite } from './run-benchmarks';
import { procCpuMs } from './proc-cpu';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'loupe.js');
const N1 = 20;
const N2 = 220;
const MEMORY_TRIALS = 2_000;
/** pairs of runs per marginal cost (the median is reported) */
const PAIRS = 5;

interface EvalRun {
  /** the process, start-up included */
  wallMs: number;
  /** from the run's start (the report's startedAt) to the process's exit */
  runMs: number;
  trials: number;
  /** the CLI process's user+system CPU, sampled from /proc until it exits */
  cpuMs: number;
}

function runEval(args: string[], env: NodeJS.ProcessEnv): Promise<EvalRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'eval', ...args, '--json'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let cpuMs = 0;
    const sampler = setInterval(() => (cpuMs = procCpuMs(child.pid!) ?? cpuMs), 20);
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      clearInterval(sampler);
      const wallMs = performance.now() - started;
      const exitedAt = Date.now();
      if (code !== 0) return reject(new Error(`loupe eval exited ${code}: ${err.slice(-1_500)}`));
      const report = JSON.parse(out) as { startedAt: string; summary: { passed: number } };
      resolve({ wallMs, runMs: exitedAt - Date.parse(report.startedAt), trials: report.summary.passed, cpuMs });
    });
  });
}

async function marginalCost(file: string, url: string, concurrency: number, dataDir: string | null): Promise<BenchFigure> {
  // the provider admits as many requests at once as trials run (without it a remote host starts at one)
  const env = { OLLAMA_HOST: url, OLLAMA_MAX_PARALLEL: String(concurrency) };
  const args = (n: number) => [file, '-t', String(n), '-c', String(concurrency)];
  await runEval(args(N1), env); // warm: the model's first load, the database's caches
  const runs: number[] = [];
  const walls: number[] = [];
  const cpus: number[] = [];
  const cliCpus: number[] = [];
  for (let r = 0; r < PAIRS; r++) {
    const cpu0 = dataDir ? postgresCpuSeconds(dataDir) : null;
    const small = await runEval(args(N1), env);
    const cpu1 = dataDir ? postgresCpuSeconds(dataDir) : null;
    const large = await runEval(args(N2), env);
    const cpu2 = dataDir ? postgresCpuSeconds(dataDir) : null;
    if (small.trials !== N1 || large.trials !== N2) throw new Error(`bench trial-cost -c ${concurrency}: trials failed`);
    runs.push((large.runMs - small.runMs) / (N2 - N1));
    walls.push((large.wallMs - small.wallMs) / (N2 - N1));
    cliCpus.push((large.cpuMs - small.cpuMs) / (N2 - N1));
    if (cpu0 !== null && cpu1 !== null && cpu2 !== null) cpus.push(((cpu2 - cpu1 - (cpu1 - cpu0)) * 1_000) / (N2 - N1));
  }
  return {
    name: `eval.marginal cost per trial -c ${concurrency}`,
    value: median(runs),
    unit: 'ms wall',
    note: `CLI CPU per trial ${median(cliCpus).toFixed(2)} ms (range ${range(cliCpus)}); Postgres CPU per trial ${cpus.length ? `${median(cpus).toFixed(2)} ms` : 'n/a (DATABASE_URL)'}; (${N2} − ${N1} trials), median of ${PAIRS} (range ${range(runs)}); from process wall times ${median(walls).toFixed(2)} ms (range ${range(walls)})`,
  };
}

async function memoryOverRun(config: LoupeConfig, file: string, url: string): Promise<BenchFigure[]> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const scenarios = loadScenarios([file]);
  const samples: number[] = [];
  await withAppContext({ ...config, ollama: { ...config.ollama, host: url } }, async (app) => {
    let done = 0;
    await app.get(ScenarioRunner).run(scenarios, {
      trials: MEMORY_TRIALS,
      concurrency: 4,
      onTrialFinished: () => {
        if (++done % 200 !== 0) return;
        gc?.();
        samples.push(process.memoryUsage().heapUsed);
      },
    });
  });
  const mb = (b: number) => b / (1024 * 1024);
  return [
    {
      name: `eval.live heap after 200 trials`,
      value: mb(samples[0]),
      unit: 'MB',
      note: gc ? 'after a full collection' : 'without --expose-gc: includes garbage',
    },
    {
      name: `eval.live heap after ${MEMORY_TRIALS} trials`,
      value: mb(samples[samples.length - 1]),
      unit: 'MB',
      note: `growth ${(mb(samples[samples.length - 1]) - mb(samples[0])).toFixed(1)} MB over ${MEMORY_TRIALS - 200} trials; samples ${samples.map((s) => mb(s).toFixed(0)).join(' ')}`,
    },
  ];
}

async function firstRun(file: string, url: string): Promise<BenchFigure> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-fresh-'));
  try {
    const run = await runEval([file, '-t', '1'], { OLLAMA_HOST: url, LOUPE_HOME: home, DATABASE_URL: '' });
    return {
      name: 'eval.first run on a fresh LOUPE_HOME (1 trial)',
      value: run.wallMs,
      unit: 'ms wall',
      note: 'embedded Postgres initialised and migrated',
    };
  } finally {
    await removeBenchHome(home);
  }
}

export const trialCostSuite: BenchSuite = {
  name: 'trial-cost',
  description: `marginal cost of a single-turn eval trial against an external zero-latency stand-in (built CLI), Postgres CPU per trial, heap over ${MEMORY_TRIALS} trials, and the first run on a fresh home`,
  run: async (config: LoupeConfig) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-cost-'));
    // zero latency: the trial's own cost is what is measured
    const standin = await startSingleTurnStandin(dir, { id: 'bench/single-turn', parallel: 8 });
    const file = standin.file;
    try {
      const dataDir = config.databaseUrl ? null : dataDirFor(config.home, () => undefined);
      // this process holds the embedded server, so the runs share one (as `npm start` and evals do)
      // and its processes can be measured
      const costs = await withAppContext(config, async (app) => {
        const c1 = await marginalCost(file, standin.url, 1, dataDir);
        const pool = (app.get(DataSource).driver as PostgresDriver).master as Pool;
        const floor = await trialFloor(pool, standin.url, BENCH_MODEL);
        const floorMs = floor.httpMs + floor.copyMs;
        return [
          c1,
          { name: 'eval.floor per trial (HTTP round trip + COPY of its rows)', value: floorMs, unit: 'ms wall', note: floor.note },
          {
            name: 'eval.marginal cost above the floor -c 1',
            value: c1.value - floorMs,
            unit: 'ms wall',
            note: `target: marginal cost ≤ 2.5 ms (it is ${c1.value.toFixed(2)} ms)`,
          },
          await marginalCost(file, standin.url, 4, dataDir),
        ];
      });
      return [...costs, ...(await memoryOverRun(config, file, standin.url)), await firstRun(file, standin.url)];
    } finally {
      await standin.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
