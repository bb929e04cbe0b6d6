// Journal insert throughput: events appended through a session recorder until they are in Postgres.
import { randomUUID } from 'node:crypto';
import type { LoupeConfig } from '../src/config/loupe-config';
import { withAppContext } from '../src/cli/app-context';
import { JournalService } from '../src/journal/journal.service';
import { SessionRecorder } from '../src/journal/session-recorder';
import { getTracer } from '../src/telemetry/telemetry';
import { median, type BenchSuite } from './run-benchmarks';

const EVENTS = 20_000;
const RUNS = 5;

export const journalSuite: BenchSuite = {
  name: 'journal',
  description: `${EVENTS} events per run through SessionRecorder → JournalService → Postgres, ${RUNS} runs`,
  run: (config: LoupeConfig) =>
    withAppContext(config, async (app) => {
      const journal = app.get(JournalService);
      const rates: number[] = [];
      for (let r = 0; r < RUNS + 1; r++) {
        const span = getTracer().startSpan('bench');
        const recorder = new SessionRecorder(
          journal,
          {
            id: randomUUID(),
            pid: 0,
            agent: 'bench',
            model: 'bench',
            prompt: 'bench',
            councilRole: null,
            trialId: null,
            workspace: null,
            config: {},
          },
          span,
        );
        await journal.flush();
        const started = performance.now();
        for (let i = 0; i < EVENTS; i++)
          recorder.event(
            'tool_result',
            { id: `call_${i}`, name: 'read_file', status: 'ok', chars: 120, durationMs: 1 },
            { iteration: i >> 4, span },
          );
        await journal.flush();
        const seconds = (performance.now() - started) / 1000;
        span.end();
        if (r > 0) rates.push(EVENTS / seconds); // run 0 warms up
      }
      return [
        {
          name: 'journal insert throughput (median)',
          value: median(rates),
          unit: 'events/s',
          note: `batches of ${config.journal.maxBatch}`,
        },
      ];
    }),
};
