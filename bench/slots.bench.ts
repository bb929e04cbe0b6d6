// Many slots: a whole `loupe eval` (the built CLI, its own process) of single-turn trials against a
// stand-in (its own process) whose model serves P requests at once at L ms a turn, with -c P, as a
// ratio of the ideal P/L trials per second. Below 0.9 of the ideal, one more run is made under
// `node --cpu-prof` and the bench prints where the CLI's time went: its busy share of the run, and
// the top functions and packages by self time (from the .cpuprofile). CPU of the CLI, the stand-in
// and the embedded Postgres per trial is printed beside each ratio: on two cores they share the
// machine, so one of them saturating is the usual reason for a low ratio.
// LOUPE_BENCH_SLOTS="16,64" picks the P values; LOUPE_BENCH_SLOTS_PROFILE=1 profiles every P.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LoupeConfig } from '../src/config/loupe-config';
import { withAppContext } from '../src/cli/app-context';
import { dataDirFor } from '../src/database/embedded/embedded-postgres';
import { postgresCpuSeconds } from './postgres-cpu';
import { summariseCpuProfile, type CpuProfile } from './cpu-profile-summary';
import { median, range, type BenchFigure, type BenchSuite } from './run-benchmarks';
import { checkTurnLength, startSingleTurnStandin } from './single-turn';
import { procCpuMs } from './proc-cpu';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'loupe.js');
const LATENCY_MS = 200;
/** trials per run = WAVES × P: long enough that the first and last wave weigh little */
const WAVES = 10;
const RUNS = 3;
const TARGET = 0.9;
/** no run may hang the bench */
const RUN_TIMEOUT_MS = 180_000;

interface SlotRun {
  durationMs: number;
  trials: number;
  passed: number;
  requests: number;
  /** the CLI process's user+system CPU, from /proc just before it was reaped */
  cliCpuMs: number;
  /** from the run's start (the report's startedAt) to the process's exit */
  runToExitMs: number;
  profile?: CpuProfile;
}

function runCli(args: string[], env: NodeJS.ProcessEnv, profileDir?: string): Promise<SlotRun> {
  return new Promise((resolve, reject) => {
    const node = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=500'] : [];
    const child = spawn(process.execPath, [...node, BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let cliCpuMs = 0;
    // sampled while it runs: the last sample before exit stands for the whole process
    const sampler = setInterval(() => (cliCpuMs = procCpuMs(child.pid!) ?? cliCpuMs), 100);
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      const exitedAt = Date.now();
      clearInterval(sampler);
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`loupe ${args.join(' ')} exited ${code}: ${err.slice(-2_000)}`));
      try {
        const j = JSON.parse(out) as {
          startedAt: string;
          durationMs: number;
          summary: { passed: number; trials: number };
          trials: Array<{ iterations: number }>;
        };
        const run: SlotRun = {
          durationMs: j.durationMs,
          trials: j.summary.trials,
          passed: j.summary.passed,
          requests: j.trials.reduce((n, t) => n + t.iterations, 0),
          cliCpuMs,
          runToExitMs: exitedAt - Date.parse(j.startedAt),
        };
        if (profileDir) {
          const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
          if (file) run.profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile;
        }
        resolve(run);
      } catch (e) {
        reject(new Error(`loupe ${args.join(' ')}: unreadable --json output (${String(e)})`));
      }
    });
  });
}

async function slots(parallel: number, dir: string, dataDir: string | null, profileAlways: boolean): Promise<BenchFigure[]> {
  const standin = await startSingleTurnStandin(dir, { id: `bench/slots-p${parallel}`, parallel, latencyMs: LATENCY_MS });
  const file = standin.file;
  const trials = WAVES * parallel;
  const args = ['eval', file, '--json', '-t', String(trials), '-c', String(parallel)];
  const env = { OLLAMA_HOST: standin.url, OLLAMA_MAX_PARALLEL: String(parallel) };
  const ideal = (parallel * 1_000) / LATENCY_MS;
  try {
    const turnMs = await checkTurnLength(standin.url, LATENCY_MS);
    await runCli(['eval', file, '--json', '-t', String(parallel), '-c', String(parallel)], env); // warm-up: the model's load, caches
    const runs: SlotRun[] = [];
    const standinCpu: number[] = [];
    const pgCpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const s0 = procCpuMs(standin.pid);
      const p0 = dataDir ? postgresCpuSeconds(dataDir) : null;
      runs.push(await runCli(args, env));
      const s1 = procCpuMs(standin.pid);
      const p1 = dataDir ? postgresCpuSeconds(dataDir) : null;
      if (s0 !== null && s1 !== null) standinCpu.push((s1 - s0) / trials);
      if (p0 !== null && p1 !== null) pgCpu.push(((p1 - p0) * 1_000) / trials);
    }
    if (runs.some((r) => r.passed !== r.trials || r.requests !== r.trials))
      throw new Error(`bench slots P=${parallel}: trials failed or took more than one request each`);
    const ratios = runs.map((r) => (r.trials * 1_000) / r.durationMs / ideal);
    const ratio = median(ratios);
    const cpuNote = `CPU per trial: CLI ${median(runs.map((r) => r.cliCpuMs / trials)).toFixed(2)} ms (whole process), stand-in ${standinCpu.length ? median(standinCpu).toFixed(2) : 'n/a'} ms, Postgres ${pgCpu.length ? median(pgCpu).toFixed(2) : 'n/a'} ms`;
    const figures: BenchFigure[] = [
      {
        name: `slots.achieved/ideal P=${parallel} L=${LATENCY_MS}ms N=${trials}`,
        value: Math.round(ratio * 1_000) / 1_000,
        unit: 'ratio of ideal P/L',
        note: `${(ratio * ideal).toFixed(1)} trials/s vs ideal ${ideal.toFixed(1)}; run ${Math.round(median(runs.map((r) => r.durationMs)))} ms; median of ${RUNS} (range ${range(ratios, 3)}); a stand-in turn ${turnMs.toFixed(0)} ms; ${cpuNote}`,
      },
    ];
    if (ratio < TARGET || profileAlways) {
      const profileDir = fs.mkdtempSync(path.join(dir, `prof-p${parallel}-`));
      const profiled = await runCli(args, env, profileDir);
      if (profiled.profile) figures.push(...profileFigures(parallel, profiled.profile, profiled.runToExitMs));
    }
    return figures;
  } finally {
    await standin.stop();
  }
}

function profileFigures(parallel: number, profile: CpuProfile, runMs: number): BenchFigure[] {
  // the run and the app's close, not the process's start-up (module loading, Nest, Postgres)
  const s = summariseCpuProfile(profile, 12, runMs);
  const pct = (ms: number) => `${((ms / s.totalMs) * 100).toFixed(1)}%`;
  return [
    {
      name: `slots.profile P=${parallel}: CLI busy in the run`,
      value: Math.round((s.busyMs / s.totalMs) * 1_000) / 1_000,
      unit: 'share of the process',
      note: `${Math.round(s.busyMs)} of ${Math.round(s.totalMs)} ms; gc ${pct(s.gcMs)}; by package ${s.byPackage
        .slice(0, 8)
        .map((p) => `${p.name} ${pct(p.selfMs)}`)
        .join(', ')}`,
    },
    ...s.top.map((f, i) => ({
      name: `slots.profile P=${parallel} #${i + 1} ${f.name}`.slice(0, 58),
      value: f.selfMs,
      unit: 'ms self',
      note: `${pct(f.selfMs)} ${f.where}`,
    })),
  ];
}

export const slotsSuite: BenchSuite = {
  name: 'slots',
  description: `a whole \`loupe eval\` (built CLI) of single-turn trials at P = 16, 64, 128 parallel slots and L = ${LATENCY_MS} ms a turn, -c P, as a ratio of the ideal P/L (target ≥ ${TARGET} at P = 64), with a CPU profile summary of the CLI when below`,
  run: async (config: LoupeConfig) => {
    const ps = (process.env.LOUPE_BENCH_SLOTS ?? '16,64,128').split(',').map(Number);
    const profileAlways = process.env.LOUPE_BENCH_SLOTS_PROFILE === '1';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-slots-'));
    try {
      const dataDir = config.databaseUrl ? null : dataDirFor(config.home, () => undefined);
      // this process holds the embedded server, so the runs share one and its CPU can be read
      return await withAppContext(config, async () => {
        const figures: BenchFigure[] = [];
        for (const p of ps) figures.push(...(await slots(p, dir, dataDir, profileAlways)));
        return figures;
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
