// How long `loupe eval` (the scenarios directory, as `npm run eval` runs it) takes to start: on a warm
// home, from the process's spawn to the run being recorded with its first trial under way (the
// "run <id>" line); on a fresh home, to its first line, and the embedded Postgres's initialisation as
// it reports it. Each run is stopped (SIGTERM) once under way. LOUPE_BENCH_START_BASELINE=<checkout>
// measures another built checkout the same way, interleaved, for a before/after in one sitting. Beside
// the wall times, the CPU the process used to get there (Linux: /proc), a figure load on a shared
// machine disturbs far less.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { median, range, type BenchFigure } from './run-benchmarks';
import { removeBenchHome } from './fresh-home';
import { procCpuMs } from './proc-cpu';

const ROOT = path.join(__dirname, '..', '..');

interface StartTimes {
  /** ms to the first line on stdout or stderr */
  firstLineMs: number;
  /** ms to the "run <id>" line: recorded, first trial starting */
  underWayMs: number;
  /** the embedded Postgres's initialisation as it printed it (fresh homes only) */
  initialisedS?: number;
  /** CPU ms of the Loupe process (user + system) to the "run <id>" line; undefined where /proc cannot say */
  underWayCpuMs?: number;
}

/** One `loupe eval` from `root`, stopped once under way. */
export function timeStart(root: string, home: string): Promise<StartTimes> {
  const t0 = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
  // the zero-install default: embedded Postgres, scripted stand-ins
  const env: NodeJS.ProcessEnv = { ...process.env, LOUPE_HOME: home };
  delete env.DATABASE_URL;
  delete env.OLLAMA_HOST;
  const child = spawn(process.execPath, [path.join(root, 'bin', 'loupe.js'), 'eval'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let firstLineMs: number | undefined;
    let underWayMs: number | undefined;
    let initialisedS: number | undefined;
    let underWayCpuMs: number | undefined;
    let text = '';
    const onData = (d: Buffer) => {
      firstLineMs ??= ms();
      text += d.toString();
      const init = /embedded Postgres initialised in ([\d.]+) s/.exec(text);
      if (init) initialisedS = Number(init[1]);
      if (underWayMs === undefined && /^run [0-9a-f-]{36} /m.test(text)) {
        underWayMs = ms();
        underWayCpuMs = procCpuMs(child.pid) ?? undefined;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      if (underWayMs === undefined || firstLineMs === undefined)
        reject(new Error(`bench start: loupe eval exited ${code} before its run was under way: ${text.slice(-2_000)}`));
      else resolve({ firstLineMs, underWayMs, initialisedS, underWayCpuMs });
    });
  });
}

export async function benchStart(options: { warmRuns?: number; freshRuns?: number } = {}): Promise<BenchFigure[]> {
  const warmRuns = options.warmRuns ?? 5;
  const freshRuns = options.freshRuns ?? 2;
  const baseline = process.env.LOUPE_BENCH_START_BASELINE;
  const roots: Array<[string, string]> = [
    ['', ROOT],
    ...(baseline ? ([['baseline ', path.resolve(baseline)]] as Array<[string, string]>) : []),
  ];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-start-'));
  const figures: BenchFigure[] = [];
  try {
    const fresh = new Map<string, StartTimes[]>(roots.map(([label]) => [label, []]));
    const warm = new Map<string, StartTimes[]>(roots.map(([label]) => [label, []]));
    for (let i = 0; i < freshRuns; i++)
      for (const [label, root] of roots)
        fresh.get(label)!.push(await timeStart(root, path.join(dir, `fresh-${label.trim() || 'this'}-${i}`)));
    // warm: each checkout's own home, initialised by its first fresh run (and its first warm run discarded)
    for (const [label, root] of roots) await timeStart(root, path.join(dir, `fresh-${label.trim() || 'this'}-0`));
    for (let i = 0; i < warmRuns; i++)
      for (const [label, root] of roots) warm.get(label)!.push(await timeStart(root, path.join(dir, `fresh-${label.trim() || 'this'}-0`)));
    const cores = `${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`;
    for (const [label] of roots) {
      const w = warm.get(label)!;
      const f = fresh.get(label)!;
      const cpu = w.flatMap((x) => (x.underWayCpuMs === undefined ? [] : [x.underWayCpuMs]));
      if (cpu.length)
        figures.push({
          name: `${label}warm home: CPU of loupe eval to its first trial`,
          value: median(cpu),
          unit: 'ms',
          note: `range ${range(cpu, 0)}; user + system of the Loupe process (not Postgres's)`,
        });
      figures.push(
        {
          name: `${label}warm home: first trial under way`,
          value: median(w.map((x) => x.underWayMs)),
          unit: 'ms',
          note: `range ${range(
            w.map((x) => x.underWayMs),
            0,
          )}; first line ${Math.round(median(w.map((x) => x.firstLineMs)))} ms; median of ${warmRuns}; ${cores}`,
        },
        {
          name: `${label}fresh home: first line`,
          value: median(f.map((x) => x.firstLineMs)),
          unit: 'ms',
          note: `range ${range(
            f.map((x) => x.firstLineMs),
            0,
          )}; first trial under way ${Math.round(median(f.map((x) => x.underWayMs)))} ms; median of ${freshRuns}`,
        },
        {
          name: `${label}fresh home: embedded Postgres initialisation`,
          value: median(f.map((x) => x.initialisedS ?? NaN)),
          unit: 's',
          note: 'as printed by loupe eval',
        },
      );
    }
    return figures;
  } finally {
    // each home's data, which as root may lie outside it (fresh-home.ts)
    for (const name of fs.readdirSync(dir)) await removeBenchHome(path.join(dir, name));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
