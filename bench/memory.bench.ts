// Peak memory of a 1,000-iteration session with 10 KB tool results: trimming and pruning must keep
// the loop's context bounded, so heap use at iteration 1,000 stays near heap use at iteration 100.
import type { LoupeConfig } from '../src/config/loupe-config';
import { withAppContext } from '../src/cli/app-context';
import { JournalService } from '../src/journal/journal.service';
import type { StandinTurn } from '../src/standin/standin-script';
import { bigFiles, runBenchSession } from './bench-session';
import { startChildStandin } from './child-standin';
import type { BenchFigure, BenchSuite } from './run-benchmarks';

const ITERATIONS = 1_000;
const RESULT_BYTES = 10_000;

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

export const memorySuite: BenchSuite = {
  name: 'memory',
  description: `one session of ${ITERATIONS} iterations with ${RESULT_BYTES / 1000} KB tool results (stand-in in a child process)`,
  run: (config: LoupeConfig) =>
    withAppContext(config, async (app) => {
      const standin = await startChildStandin(memoryTurns(ITERATIONS));
      const samples = new Map<number, number>();
      let peakHeap = 0;
      // with --expose-gc (npm run bench passes it) live heap is measured after a full collection;
      // without it, heapUsed includes garbage not yet collected and only bounds the live size
      const gc = (globalThis as { gc?: () => void }).gc;
      const sub = app.get(JournalService).entries$.subscribe((e) => {
        if (e.kind !== 'iteration' || e.row.finishedAt === null) return;
        if ((e.row.idx + 1) % 100 !== 0) return;
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
        const at100 = samples.get(100) ?? 0;
        const at1000 = samples.get(1000) ?? 0;
        const figures: BenchFigure[] = [
          { name: 'iterations completed', value: result.iterations, unit: '', note: `in ${(ms / 1000).toFixed(1)} s` },
          { name: 'heap used at iteration 100', value: mb(at100), unit: 'MiB' },
          { name: 'heap used at iteration 500', value: mb(samples.get(500) ?? 0), unit: 'MiB' },
          {
            name: 'heap used at iteration 1000',
            value: mb(at1000),
            unit: 'MiB',
            note: `ratio to iteration 100: ${(at1000 / at100).toFixed(2)}`,
          },
          {
            name: gc
              ? 'peak live heap (after GC, sampled every 100 iterations)'
              : 'peak heap used (sampled every 100 iterations, no forced GC)',
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
    }),
};
