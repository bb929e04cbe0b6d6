// The floor under a trial's marginal cost: what any harness that talks to the stand-in and keeps
// the same record must spend. One raw HTTP round trip (the same streamed /api/chat request, read
// to its end, over a kept-alive connection) plus one COPY of the rows a recorded trial left
// (its session, trial, messages, iterations, tool calls and events, copied from the database and
// sent back with COPY FROM STDIN into temporary tables of the same shape). What Loupe spends above
// it is Loupe.
import * as http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool, PoolClient } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { median, range } from './run-benchmarks';

/** per table: which column names the trial's session */
const TABLES: Array<[table: string, sessionColumn: string]> = [
  ['sessions', 'id'],
  ['eval_trials', 'session_id'],
  ['messages', 'session_id'],
  ['iterations', 'session_id'],
  ['tool_calls', 'session_id'],
  ['events', 'session_id'],
];

export interface TrialFloor {
  httpMs: number;
  copyMs: number;
  rows: number;
  note: string;
}

/** One streamed /api/chat request, read to its end. */
export function chatRoundTrip(agent: http.Agent, url: URL, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: '/api/chat', method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', resolve);
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function httpFloor(standinUrl: string, model: string, n: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(standinUrl);
  const body = JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'Say done.' }], options: {} });
  const times: number[] = [];
  try {
    for (let i = 0; i < n + 10; i++) {
      const t0 = process.hrtime.bigint();
      await chatRoundTrip(agent, url, body);
      if (i >= 10) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  } finally {
    agent.destroy();
  }
  return times;
}

async function copyText(client: PoolClient, sql: string): Promise<string> {
  const chunks: Buffer[] = [];
  const stream = client.query(copyTo(sql));
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

/** The median round trip and COPY, over `n` of each, for the last trial recorded. */
export async function trialFloor(pool: Pool, standinUrl: string, model: string, n = 200): Promise<TrialFloor> {
  const http = await httpFloor(standinUrl, model, n);
  const client = await pool.connect();
  try {
    const last = await client.query<{ session_id: string }>(
      'SELECT session_id FROM eval_trials WHERE session_id IS NOT NULL ORDER BY started_at DESC LIMIT 1',
    );
    const sessionId = last.rows[0]?.session_id;
    if (!sessionId) throw new Error('bench trial floor: no recorded trial to copy');
    const data: Array<[string, string]> = [];
    let rows = 0;
    for (const [table, column] of TABLES) {
      const text = await copyText(client, `COPY (SELECT * FROM ${table} WHERE ${column} = '${sessionId}') TO STDOUT`);
      rows += text ? text.split('\n').length - 1 : 0;
      await client.query(`CREATE TEMP TABLE floor_${table} (LIKE ${table} INCLUDING DEFAULTS)`);
      data.push([table, text]);
    }
    const copies: number[] = [];
    for (let i = 0; i < n + 10; i++) {
      const t0 = process.hrtime.bigint();
      // one transaction, as the journal writes a batch
      await client.query('BEGIN');
      for (const [table, text] of data) {
        if (text) await pipeline(Readable.from([text]), client.query(copyFrom(`COPY floor_${table} FROM STDIN`)));
      }
      await client.query('COMMIT');
      if (i >= 10) copies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const httpMs = median(http);
    const copyMs = median(copies);
    return {
      httpMs,
      copyMs,
      rows,
      note: `HTTP round trip ${httpMs.toFixed(2)} ms (range ${range(http)}) + COPY of ${rows} rows in ${data.filter(([, t]) => t).length} tables ${copyMs.toFixed(2)} ms (range ${range(copies)}); medians of ${n}`,
    };
  } finally {
    // the temporary tables go with the connection
    client.release(true);
  }
}
