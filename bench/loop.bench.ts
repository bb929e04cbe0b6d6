// Harness time per loop iteration with a zero-delay scripted model, journal on vs off; and the
// same excluding model time (the inference calls' own wall time, as the provider measures it).
import type { LoupeConfig } from '../src/config/loupe-config';
import { withAppContext } from '../src/cli/app-context';
import { dataDirFor } from '../src/database/embedded/embedded-postgres';
import { JournalService } from '../src/journal/journal.service';
import { StandinServer } from '../src/standin/standin-server';
import { runBenchSession, variedToolTurns } from './bench-session';
import { postgresCpuSeconds } from './postgres-cpu';
import { median, type BenchFigure, type BenchSuite } from './run-benchmarks';

const ITERATIONS = 60;
const RUNS = 7;

export const loopSuite: BenchSuite = {
  name: 'loop',
  description: `sessions of ${ITERATIONS} tool iterations against a zero-delay stand-in, ${RUNS} runs each, journal on and off`,
  run: (config: LoupeConfig) =>
    withAppContext(config, async (app) => {
      const journal = app.get(JournalService);
      const perIteration: Record<string, number> = {};
      const harnessOnly: Record<string, number> = {};
      const dataDir = config.databaseUrl ? null : dataDirFor(config.home, () => undefined);
      // Postgres CPU over the reported journal-on pass, per iteration (null: an external server)
      let postgresMs: number | null = null;
      // the first pair of passes warms up the JIT; the second pair is reported
      for (const [pass, enabled] of [true, false, true, false].entries()) {
        const label = enabled ? 'on' : 'off';
        const total: number[] = [];
        const harness: number[] = [];
        const cpuBefore = pass === 2 && dataDir ? postgresCpuSeconds(dataDir) : null;
        let iterations = 0;
        for (let r = 0; r < RUNS; r++) {
          const standin = new StandinServer({ script: { turns: { '*': variedToolTurns(ITERATIONS) } } });
          const { url } = await standin.start(0);
          journal.enabled = enabled;
          try {
            const { result, ms, modelMs } = await runBenchSession(app, url, 'llama3.1:8b', { maxToolIterations: ITERATIONS + 5 });
            if (result.terminationReason !== 'completed') throw new Error(`bench session ended with ${result.terminationReason}`);
            total.push(ms / result.iterations);
            iterations += result.iterations;
            harness.push((ms - modelMs) / result.iterations);
          } finally {
            await journal.flush();
            journal.enabled = true;
            await standin.stop();
          }
        }
        const cpuAfter = cpuBefore !== null && dataDir ? postgresCpuSeconds(dataDir) : null;
        if (cpuBefore !== null && cpuAfter !== null) postgresMs = ((cpuAfter - cpuBefore) * 1000) / iterations;
        perIteration[label] = median(total);
        harnessOnly[label] = median(harness);
      }
      const figures: BenchFigure[] = [
        { name: 'time per iteration, journal on (median)', value: perIteration.on, unit: 'ms' },
        {
          name: 'time per iteration, journal off (median)',
          value: perIteration.off,
          unit: 'ms',
          note: `on/off ratio ${(perIteration.on / perIteration.off).toFixed(2)}`,
        },
        {
          name: 'harness time per iteration excl. model time, journal on',
          value: harnessOnly.on,
          unit: 'ms',
          note: `Postgres CPU per iteration ${postgresMs === null ? 'n/a (DATABASE_URL)' : `${postgresMs.toFixed(3)} ms`}`,
        },
        { name: 'harness time per iteration excl. model time, journal off', value: harnessOnly.off, unit: 'ms' },
      ];
      return figures;
    }),
};
