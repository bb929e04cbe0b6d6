// Journal insert throughput: events appended through a session recorder until they are in Postgres.
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
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
      const copyRates: number[] = [];
      for (let r = 0; r < RUNS + 1; r++) {
        const span = getTracer().startSpan('bench');
        const sessionId = randomUUID();
        const recorder = new SessionRecorder(
          journal,
          {
            id: sessionId,
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
        // a session left running would be closed as abandoned (with a warning) by the next start in this home
        recorder.finish({ terminationReason: 'completed', exitCode: 0 });
        await journal.flush();
        if (r > 0) rates.push(EVENTS / seconds); // run 0 warms up
        const copied = await copyBaseline(app.get(DataSource), sessionId);
        if (r > 0) copyRates.push(copied);
      }
      const journalRate = median(rates);
      const copyRate = median(copyRates);
      return [
        {
          name: 'journal insert throughput (median)',
          value: journalRate,
          unit: 'events/s',
          note: `batches of ${config.journal.maxBatch}`,
        },
        { name: 'raw COPY of the same rows (median)', value: copyRate, unit: 'events/s', note: 'COPY FROM STDIN, one transaction' },
        { name: 'journal share of raw COPY', value: journalRate / copyRate, unit: 'ratio' },
      ];
    }),
};

/**
 * The ceiling: the rows the journal just wrote, read back and written again under a copy of their
 * session with one `COPY events FROM STDIN` (no encoding, batching or retries of Loupe's own).
 */
async function copyBaseline(dataSource: DataSource, sessionId: string): Promise<number> {
  const pool = (dataSource.driver as unknown as { master: { connect(): Promise<PoolClient> } }).master;
  const client = await pool.connect();
  try {
    const copyOf = randomUUID();
    await client.query('CREATE TEMP TABLE bench_session AS SELECT * FROM sessions WHERE id = $1', [sessionId]);
    await client.query('UPDATE bench_session SET id = $1', [copyOf]);
    await client.query('INSERT INTO sessions SELECT * FROM bench_session');
    await client.query('DROP TABLE bench_session');
    const { rows } = await client.query<Record<string, string | null>>(
      `SELECT seq::text, iteration::text, type, payload::text, created_at::text, trace_id, span_id, originals
         FROM events WHERE session_id = $1 ORDER BY seq`,
      [sessionId],
    );
    // COPY text format: tab-separated, \N for NULL, backslash, tab and line breaks escaped
    const field = (v: string | null) =>
      v === null ? '\\N' : v.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
    const text = rows
      .map((r) => [copyOf, r.seq, r.iteration, r.type, r.payload, r.created_at, r.trace_id, r.span_id, r.originals].map(field).join('\t'))
      .join('\n');
    const started = performance.now();
    await client.query('BEGIN');
    await new Promise<void>((resolve, reject) => {
      const stream = client.query(
        copyFrom('COPY events (session_id, seq, iteration, type, payload, created_at, trace_id, span_id, originals) FROM STDIN'),
      );
      stream.on('finish', resolve);
      stream.on('error', reject);
      stream.end(`${text}\n`);
    });
    await client.query('COMMIT');
    return rows.length / ((performance.now() - started) / 1000);
  } finally {
    client.release();
  }
}
