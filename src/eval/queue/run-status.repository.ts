// `loupe eval status RUN`: a run's progress — trials with a verdict, running, interrupted, still
// waiting in the queue — and the same per worker (the process that ran them: a `loupe worker`, or the
// `loupe eval` process itself), with each worker's host, OLLAMA_HOST, slots and heartbeat.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { StoredRunConfig } from '../run-resume';

export interface TrialCounts {
  running: number;
  passed: number;
  failed: number;
  /** no check applied: a verdict, never a pass */
  unjudged: number;
  error: number;
  interrupted: number;
}

export interface WorkerProgress extends TrialCounts {
  /** null: the `loupe eval` process itself */
  id: string | null;
  name: string;
  host: string | null;
  pid: number | null;
  ollamaHost: string | null;
  slots: number | null;
  /** running, stopped, dead; for the eval process, the run's own status */
  status: string;
  /** ms since its last heartbeat (workers only) */
  heartbeatAgeMs: number | null;
}

export interface RunStatus {
  runId: string;
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  /** trials the run plans */
  trials: number;
  /** trials with a verdict (one per planned trial) */
  done: number;
  totals: TrialCounts;
  /** jobs of a queued run not taken yet */
  waiting: number | null;
  workers: WorkerProgress[];
}

const ZERO: TrialCounts = { running: 0, passed: 0, failed: 0, unjudged: 0, error: 0, interrupted: 0 };

@Injectable()
export class RunStatusRepository {
  constructor(private readonly dataSource: DataSource) {}

  async status(runId: string): Promise<RunStatus | null> {
    const [run] = (await this.dataSource.query(
      `SELECT id, status, started_at, finished_at, owner_pid, owner_host, config FROM eval_runs WHERE id = $1`,
      [runId],
    )) as Array<{
      id: string;
      status: string;
      started_at: Date;
      finished_at: Date | null;
      owner_pid: number;
      owner_host: string;
      config: StoredRunConfig;
    }>;
    if (!run) return null;
    // counters kept by a trigger as trials change (migration RunTrialCounts): a few rows, whatever the run's size
    const rows = (
      (await this.dataSource.query(`SELECT worker_key, status, n FROM eval_run_counts WHERE run_id = $1 AND n <> 0`, [runId])) as Array<{
        worker_key: string;
        status: keyof TrialCounts;
        n: number;
      }>
    ).map((r) => ({ worker_id: r.worker_key === '' ? null : r.worker_key, status: r.status, n: r.n }));
    const [progress0] = (await this.dataSource.query(`SELECT done FROM eval_run_progress WHERE run_id = $1`, [runId])) as Array<{
      done: number;
    }>;
    const done = progress0?.done ?? 0;
    const ids = [...new Set(rows.map((r) => r.worker_id).filter((id): id is string => id !== null))];
    const workers = ids.length
      ? ((await this.dataSource.query(
          `SELECT id, name, host, pid, ollama_host, slots, status, extract(epoch FROM now() - heartbeat_at) * 1000 AS age
             FROM eval_workers WHERE id = ANY($1)`,
          [ids],
        )) as Array<{
          id: string;
          name: string;
          host: string;
          pid: number;
          ollama_host: string | null;
          slots: number;
          status: string;
          age: number;
        }>)
      : [];
    const counts = (id: string | null): TrialCounts => {
      const c = { ...ZERO };
      for (const r of rows) if (r.worker_id === id && r.status in c) c[r.status] += r.n;
      return c;
    };
    const totals = { ...ZERO };
    for (const r of rows) if (r.status in totals) totals[r.status] += r.n;
    const progress: WorkerProgress[] = workers
      .map((w) => ({
        id: w.id,
        name: w.name,
        host: w.host,
        pid: Number(w.pid),
        ollamaHost: w.ollama_host,
        slots: w.slots,
        status: w.status,
        heartbeatAgeMs: Math.round(Number(w.age)),
        ...counts(w.id),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
    if (rows.some((r) => r.worker_id === null))
      progress.unshift({
        id: null,
        name: 'loupe eval',
        host: run.owner_host,
        pid: Number(run.owner_pid),
        ollamaHost: null,
        slots: run.config.concurrency ?? null,
        status: run.status,
        heartbeatAgeMs: null,
        ...counts(null),
      });
    let waiting: number | null = null;
    if (run.config.queued) {
      const [q] = (await this.dataSource
        .query(`SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'runId' = $1 AND state IN ('created', 'retry')`, [runId])
        .catch(() => [{ n: 0 }])) as Array<{ n: number }>;
      waiting = q.n;
    }
    return {
      runId,
      status: run.status,
      startedAt: run.started_at,
      finishedAt: run.finished_at,
      trials: run.config.jobCount ?? done,
      done,
      totals,
      waiting,
      workers: progress,
    };
  }
}
