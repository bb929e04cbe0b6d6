// `npm run bench`: suites print figures (medians over repeated runs); nothing here is a pass/fail test.
import type { LoupeConfig } from '../src/config/loupe-config';

export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

export interface BenchSuite {
  name: string;
  description: string;
  run(config: LoupeConfig): Promise<BenchFigure[]>;
}

/* eslint-disable @typescript-eslint/no-require-imports */
function suites(): BenchSuite[] {
  // required lazily: the suites import this file for median() and the types
  const { loopSuite } = require('./loop.bench') as typeof import('./loop.bench');
  const { journalSuite } = require('./journal.bench') as typeof import('./journal.bench');
  const { memorySuite } = require('./memory.bench') as typeof import('./memory.bench');
  const { benchSlotThroughput } = require('./provider.bench') as typeof import('./provider.bench');
  const { benchSlotLimiterOverhead } = require('./slot-limiter.bench') as typeof import('./slot-limiter.bench');
  const { benchExtraction } = require('./extraction.bench') as typeof import('./extraction.bench');
  return [
    loopSuite,
    journalSuite,
    memorySuite,
    {
      name: 'limiter-slots',
      description: 'N requests through the slot limiter against a stand-in of capacity P and latency L, as a ratio of the ideal P/L',
      run: () => benchSlotThroughput(),
    },
    {
      name: 'stream',
      description:
        'client CPU and wall per streamed /api/chat call through the provider, stand-in in its own process; global fetch beside it',
      run: () => (require('./stream.bench') as typeof import('./stream.bench')).benchStream(),
    },
    { name: 'limiter', description: 'slot limiter acquire/release overhead (pure, no I/O)', run: () => benchSlotLimiterOverhead() },
    {
      name: 'extraction',
      description: 'tool-call extraction throughput on a mixed set, and worst cases on 1 MB adversarial inputs',
      run: () => benchExtraction(),
    },
    {
      name: 'eval',
      description:
        'the built CLI: scripted suite wall time, and a whole `loupe eval` of N trials against a stand-in of capacity P and latency L as a ratio of the ideal P/L',
      run: () => (require('./eval.bench') as typeof import('./eval.bench')).benchEval(),
    },
    {
      name: 'replay',
      description:
        'the built CLI: trials per second replaying a recorded run (--replay, fast) vs the same scenarios on the scripted stand-in, and while recording',
      run: () => (require('./replay.bench') as typeof import('./replay.bench')).benchReplay(),
    },
    {
      name: 'trial-cost',
      description:
        'marginal cost of a single-turn eval trial (built CLI, external zero-latency stand-in) at -c 1 and -c 4 with Postgres CPU per trial, heap over 2,000 trials, first run on a fresh home',
      run: (config) => (require('./trial-cost.bench') as typeof import('./trial-cost.bench')).trialCostSuite.run(config),
    },
    {
      name: 'slots',
      description:
        'the built CLI: a whole `loupe eval` at P = 16, 64, 128 parallel slots and L = 200 ms a turn (-c P) as a ratio of the ideal P/L, CPU per trial of the CLI, stand-in and Postgres, and a CPU profile summary of the CLI when below 0.9',
      run: (config) => (require('./slots.bench') as typeof import('./slots.bench')).slotsSuite.run(config),
    },
    {
      name: 'live',
      description:
        'journal-to-subscriber latency p50/p99 with 50 socket.io subscribers on one session; time per loop iteration with and without them',
      run: (config) => (require('./live.bench') as typeof import('./live.bench')).liveSuite.run(config),
    },
    {
      name: 'queue',
      description:
        'the built CLI: a queued run of N single-turn trials over W = 1, 2, 4 `loupe worker` processes, each with its own stand-in of capacity P and latency L, as a ratio of the ideal W·P/L',
      run: () => (require('./queue.bench') as typeof import('./queue.bench')).benchQueue(),
    },
    {
      name: 'start',
      description:
        'the built CLI: `loupe eval` (the scenarios directory) on a warm home to its first trial under way, and on a fresh home to its first line, with the embedded Postgres initialisation',
      run: () => (require('./start.bench') as typeof import('./start.bench')).benchStart(),
    },
    {
      name: 'calibration',
      description:
        'simulated null comparisons at 1, 3 and 5 models × 24 cells × 10 trials: the false "regressed" rate (≤ 0.05), and the power to catch a 30-point drop in one cell',
      run: (config) => (require('./calibration.bench') as typeof import('./calibration.bench')).calibrationSuite.run(config),
    },
    {
      name: 'live-reloads',
      description:
        'the built CLI against a stand-in whose 3 models load in 2 s, 2 num_ctx values, -c 2: reloads inside measured turns (from the stand-in log) and the run wall time',
      run: () => (require('./live-reloads.bench') as typeof import('./live-reloads.bench')).benchLiveReloads(),
    },
    {
      name: 'viewer',
      description:
        'headless Chromium: the session page with a 1,000-iteration session and the run page with 1,000 trials (written through the journal), median ms to first paint and to fully rendered',
      run: (config) => (require('./viewer.bench') as typeof import('./viewer.bench')).benchViewer(config),
    },
    {
      name: 'sandbox',
      description: 'execute_command `true` through the MCP client, sandbox on (bubblewrap) vs off: median ms per call',
      run: () => (require('./sandbox.bench') as typeof import('./sandbox.bench')).benchSandbox(),
    },
    {
      name: 'sim',
      description:
        'simulated models: a cell of 1,000 sim trials (built CLI), the share of 10-trial Wilson intervals covering the 1,000-trial rate; a simulated vs a scripted reply on the stand-in (median ms per request) and a whole trial, scripted vs sim:diligent (ms per trial)',
      run: () => (require('./sim.bench') as typeof import('./sim.bench')).benchSim(),
    },
  ];
}
/* eslint-enable @typescript-eslint/no-require-imports */

export async function runBenchmarks(config: LoupeConfig, opts: { only: string[]; json: boolean }): Promise<void> {
  const all = suites();
  const unknown = opts.only.filter((n) => !all.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown bench suite(s): ${unknown.join(', ')} (have: ${all.map((s) => s.name).join(', ')})`);
  const chosen = opts.only.length ? all.filter((s) => opts.only.includes(s.name)) : all;
  const results: Record<string, BenchFigure[]> = {};
  for (const suite of chosen) {
    process.stderr.write(`bench ${suite.name}: ${suite.description}\n`);
    results[suite.name] = await suite.run(config);
    if (!opts.json) {
      for (const f of results[suite.name]) {
        process.stdout.write(
          `${suite.name.padEnd(12)} ${f.name.padEnd(58)} ${formatValue(f.value).padStart(12)} ${f.unit}${f.note ? `  (${f.note})` : ''}\n`,
        );
      }
    }
  }
  if (opts.json) process.stdout.write(`${JSON.stringify({ node: process.version, results }, null, 2)}\n`);
}

function formatValue(v: number): string {
  if (Math.abs(v) >= 1000) return v.toFixed(0);
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(3);
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** "min–max" of repeated measurements, printed beside their median */
export function range(xs: number[], digits = 2): string {
  return `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
}
