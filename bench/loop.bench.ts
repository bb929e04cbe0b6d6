// Harness time per loop iteration with a zero-delay scripted model, journal on vs off.
import type { LoupeConfig } from '../src/config/loupe-config';
import { withAppContext } from '../src/cli/app-context';
import { JournalService } from '../src/journal/journal.service';
import { StandinServer } from '../src/standin/standin-server';
import { runBenchSession, variedToolTurns } from './bench-session';
import { median, type BenchFigure, type BenchSuite } from './run-benchmarks';

const ITERATIONS = 60;
const RUNS = 7;

export const loopSuite: BenchSuite = {
  name: 'loop',
  description: `sessions of ${ITERATIONS} tool iterations against a zero-delay stand-in, ${RUNS} runs each, journal on and off`,
  run: (config: LoupeConfig) => withAppContext(config, async (app) => {
    const journal = app.get(JournalService);
    const figures: BenchFigure[] = [];
    const perMode: Record<string, number> = {};
    for (const enabled of [true, false, true, false]) {
      const label = enabled ? 'on' : 'off';
      const samples: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const standin = new StandinServer({ script: { turns: { '*': variedToolTurns(ITERATIONS) } } });
        const { url } = await standin.start(0);
        journal.enabled = enabled;
        try {
          const { result, ms } = await runBenchSession(app, url, 'llama3.1:8b', { maxToolIterations: ITERATIONS + 5 });
          if (result.terminationReason !== 'completed') throw new Error(`bench session ended with ${result.terminationReason}`);
          samples.push(ms / result.iterations);
        } finally {
          await journal.flush();
          journal.enabled = true;
          await standin.stop();
        }
      }
      // the first pair warms up the JIT, the second pair is reported
      perMode[label] = median(samples);
    }
    figures.push({ name: 'time per iteration, journal on (median)', value: perMode.on, unit: 'ms' });
    figures.push({ name: 'time per iteration, journal off (median)', value: perMode.off, unit: 'ms' });
    figures.push({ name: 'journal overhead per iteration', value: perMode.on - perMode.off, unit: 'ms', note: `ratio on/off ${(perMode.on / perMode.off).toFixed(2)}` });
    return figures;
  }),
};
