// What `loupe eval --record` kept, said once the run ends: how many model exchanges from how many
// trials, their size in Postgres, where they are, and the commands that use them.
import type { INestApplicationContext } from '@nestjs/common';
import { lazy } from './lazy';

export interface RecordedTotals {
  exchanges: number;
  chats: number;
  trials: number;
  bytes: number;
}

/** `1.4 MB`, `830 kB`, `512 B` (decimal units, as `du --si` and browsers show them) */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = -1;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

export function recordSummaryText(runId: string, t: RecordedTotals, where: string): string {
  if (!t.exchanges) return `--record: nothing was recorded for run ${runId} (no trial reached a model)`;
  return [
    `recorded ${t.exchanges} model exchange${t.exchanges === 1 ? '' : 's'} (${t.chats} chat${t.chats === 1 ? '' : 's'}) from ${t.trials} trial${t.trials === 1 ? '' : 's'}, ${formatBytes(t.bytes)}, in ${where} table eval_exchanges (run ${runId})`,
    `  replay: loupe eval --replay ${runId}   export: loupe eval export ${runId} -o run.loupe.jsonl.gz`,
  ].join('\n');
}

/** The run's recorded exchanges, read back from Postgres (the journal has flushed by the time the report exists). */
export async function recordedTotals(app: INestApplicationContext, runId: string): Promise<RecordedTotals> {
  const ds = app.get(lazy.typeorm().DataSource);
  const [row] = (await ds.query(
    `SELECT count(*)::int AS exchanges, count(*) FILTER (WHERE kind = 'chat')::int AS chats,
            count(DISTINCT trial_id)::int AS trials, coalesce(sum(pg_column_size(e.*)), 0)::bigint AS bytes
       FROM eval_exchanges e WHERE run_id = $1`,
    [runId],
  )) as Array<{ exchanges: number; chats: number; trials: number; bytes: string }>;
  return { exchanges: row.exchanges, chats: row.chats, trials: row.trials, bytes: Number(row.bytes) };
}
