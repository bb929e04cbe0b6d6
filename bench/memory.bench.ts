// Memory stays flat however long things run (live heap after full collections, sampled each tenth):
// - one session of 10,000 iterations with 10 KB tool results: trimming and pruning must keep the
//   loop's context bounded, so heap at the last iteration stays within 1.2× of heap at the first tenth;
// - one scripted run of many single-turn trials (in this process, as `loupe eval` runs them): heap at
//   its end within 1.2× of heap after its first tenth. 100,000 trials take well over the few minutes a
//   suite gets on a 2-core machine: LOUPE_BENCH_MEMORY_TRIALS sets the count (default 12,000: about 3 minutes here).
// LOUPE_BENCH_MEMORY_PARTS=session or =run measures one of the two (while iterating on it).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LoupeConfig } from '../src/config/loupe-config';
import { withAppContext } from '../src/cli/app-context';
import { ScenarioRunner } from '../src/eval/scenario-runner.service';
import { loadScenarios } from '../src/eval/scenario/scenario-loader';
import { JournalService } from '../src/journal/journal.service';
import type { StandinTurn } from '../src/standin/standin-script';
import { bigFiles, runBenchSession } from './bench-session';
import { startChildStandin } from './child-standin';
import type { BenchFigure, BenchSuite } from './run-benchmarks';
import { writeSingleTurnScenario } from './single-turn';

const ITERATIONS = 10_000;
const TENTH = ITERATIONS / 10;
const RUN_TRIALS = Number(process.env.LOUPE_BENCH_MEMORY_TRIALS ?? 12_000);
const RESULT_BYTES = 10_000;
const PARTS = (process.env.LOUPE_BENCH_MEMORY_PARTS ?? 'session,run').split(',').map((p) => p.trim());

/** Two 10 KB reads, then a small write, over and over: no loop detector fires, every third result is small. */
function memoryTurns(n: number): StandinTurn[] {
  const turns: StandinTurn[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 3;
    turns.push({
      toolCalls: [
        k === 2
          ? { name: 'write_file', arguments: { path: `out-${i}.txt`, content: `step ${i}` } }
          : { name: 'read_file', arguments: { path: `big${(i + k * 3) % 7}.txt` } },
      ],
    });
  }
  turns.push({ content: 'Done.' });
  return turns;
}

const mb = (bytes: number) => bytes / (1024 * 1024);

// with --expose-gc (npm run bench passes it) live heap is measured after a full collection;
// without it, heapUsed includes garbage not yet collected and only bounds the live size
const gc = (globalThis as { gc?: () => void }).gc;

/** A scripted run of `trials` single-turn trials at -c 4: live heap after each tenth. */
async function scriptedRun(config: LoupeConfig, trials: number): Promise<BenchFigure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-memory-'));
  // the throughput benches' single-turn trial, scripted: each trial on its own stand-in
  const file = writeSingleTurnScenario(dir, { id: 'bench/memory-single-turn', parallel: 4 });
  try {
    const scenarios = loadScenarios([file]);
    const tenth = Math.max(1, Math.floor(trials / 10));
    const samples: number[] = [];
    const started = Date.now();
    // scripted: each trial on its own stand-in, whatever OLLAMA_HOST says
    const report = await withAppContext({ ...config, ollama: { ...config.ollama, host: undefined } }, async (app) => {
      let done = 0;
      return app.get(ScenarioRunner).run(scenarios, {
        trials,
        concurrency: 4,
        onTrialFinished: () => {
          if (++done % tenth !== 0) return;
          gc?.();
          samples.push(process.memoryUsage().heapUsed);
        },
      });
    });
    const ms = Date.now() - started;
    if (report.passed !== trials) throw new Error(`memory bench: ${trials - report.passed} scripted trials did not pass`);
    const first = samples[0];
    const last = samples[samples.length - 1];
    // the growth per trial from the first tenth to the end (what a longer run would add)
    const perTrial = (last - first) / Math.max(1, tenth * (samples.length - 1));
    return [
      { name: `scripted run: heap after its first tenth (${tenth} trials)`, value: mb(first), unit: 'MiB' },
      { name: 'scripted run: heap growth per trial after the first tenth', value: Math.round(perTrial), unit: 'B' },
      {
        name: `scripted run: heap after ${trials} trials`,
        value: mb(last),
        unit: 'MiB',
        note: `ratio to the first tenth: ${(last / first).toFixed(2)} (target ≤ 1.2); ${(ms / 1000).toFixed(0)} s, -c 4; tenths ${samples.map((x) => mb(x).toFixed(0)).join(' ')}`,
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const memorySuite: BenchSuite = {
  name: 'memory',
  description: `one session of ${ITERATIONS} iterations with ${RESULT_BYTES / 1000} KB tool results (stand-in in a child process); a scripted run of ${RUN_TRIALS} trials; heap at the end vs after the first tenth`,
  run: async (config: LoupeConfig) => [
    ...(PARTS.includes('session') ? await sessionMemory(config) : []),
    ...(PARTS.includes('run') ? await scriptedRun(config, RUN_TRIALS) : []),
  ],
};

function sessionMemory(config: LoupeConfig): Promise<BenchFigure[]> {
  return withAppContext(config, async (app) => {
    const standin = await startChildStandin(memoryTurns(ITERATIONS));
    const samples = new Map<number, number>();
    let peakHeap = 0;
    const sub = app.get(JournalService).entries$.subscribe((e) => {
      if (e.kind !== 'iteration' || e.row.finishedAt === null) return;
      if ((e.row.idx + 1) % TENTH !== 0) return;
      gc?.();
      const heap = process.memoryUsage().heapUsed;
      peakHeap = Math.max(peakHeap, heap);
      samples.set(e.row.idx + 1, heap);
    });
    try {
      const { result, ms } = await runBenchSession(
        app,
        standin.url,
        'llama3.1:8b',
        { maxToolIterations: ITERATIONS + 5 },
        bigFiles(RESULT_BYTES),
      );
      if (result.terminationReason !== 'completed') throw new Error(`memory bench session ended with ${result.terminationReason}`);
      const first = samples.get(TENTH) ?? 0;
      const last = samples.get(ITERATIONS) ?? 0;
      const figures: BenchFigure[] = [
        { name: 'iterations completed', value: result.iterations, unit: '', note: `in ${(ms / 1000).toFixed(1)} s` },
        { name: `heap used at iteration ${TENTH}`, value: mb(first), unit: 'MiB' },
        { name: `heap used at iteration ${ITERATIONS / 2}`, value: mb(samples.get(ITERATIONS / 2) ?? 0), unit: 'MiB' },
        {
          name: `heap used at iteration ${ITERATIONS}`,
          value: mb(last),
          unit: 'MiB',
          note: `ratio to iteration ${TENTH}: ${(last / first).toFixed(2)} (target ≤ 1.2); tenths ${[...samples.values()].map((x) => mb(x).toFixed(0)).join(' ')}`,
        },
        {
          name: gc
            ? `peak live heap (after GC, sampled every ${TENTH} iterations)`
            : `peak heap used (sampled every ${TENTH} iterations, no forced GC)`,
          value: mb(peakHeap),
          unit: 'MiB',
        },
        { name: 'peak resident set size of the process', value: process.resourceUsage().maxRSS / 1024, unit: 'MiB' },
      ];
      return figures;
    } finally {
      sub.unsubscribe();
      await standin.stop();
    }
  });
}
