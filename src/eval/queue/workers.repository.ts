// The workers of queued runs in Postgres: each registers, beats, and lists the jobs it holds (with
// the trial and session each runs), so that when its heartbeat stops any other worker can declare it
// dead and release what it held: the trials are marked interrupted (their sessions closed as
// interrupted, kept), the jobs go back to the queue.
import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { StaleSessionsRepository } from '../../journal/stale-sessions.repository';
import type { TrialQueueName } from './trial-queue';

export interface HeldJob {
  jobId: string;
  queue: TrialQueueName;
  runId: string;
  trialId: string;
  sessionId: string;
}

export interface WorkerRegistration {
  id: string;
  name: string;
  host: string;
  pid: number;
  ollamaHost: string | null;
  slots: number;
}

export interface DeadWorker {
  id: string;
  name: string;
  pid: number;
  jobs: HeldJob[];
}

@Injectable()
export class WorkersRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stale: StaleSessionsRepository,
  ) {}

  async register(w: WorkerRegistration): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO eval_workers (id, name, host, pid, ollama_host, slots, status, started_at, heartbeat_at, jobs)
       VALUES ($1, $2, $3, $4, $5, $6, 'running', now(), now(), '[]'::jsonb)`,
      [w.id, w.name, w.host, w.pid, w.ollamaHost, w.slots],
    );
  }

  /** false: this worker was declared dead meanwhile (its jobs were released): it must stop. */
  async beat(id: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `UPDATE eval_workers SET heartbeat_at = now() WHERE id = $1 AND status = 'running' RETURNING id`,
      [id],
    )) as [unknown[], number];
    return rows[1] > 0;
  }

  /** Records jobs as held (in the claiming transaction); false when the worker is no longer running. */
  async hold(tx: PoolClient, id: string, jobs: HeldJob[]): Promise<boolean> {
    const r = await tx.query(
      `UPDATE eval_workers SET jobs = jobs || $2::jsonb, heartbeat_at = now() WHERE id = $1 AND status = 'running'`,
      [id, JSON.stringify(jobs)],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** The job is done: false when it was no longer held by this worker (it was released meanwhile). */
  async drop(tx: PoolClient, id: string, jobId: string): Promise<boolean> {
    const r = await tx.query(
      `UPDATE eval_workers
          SET jobs = (SELECT coalesce(jsonb_agg(j), '[]'::jsonb) FROM jsonb_array_elements(jobs) j WHERE j->>'jobId' <> $2)
        WHERE id = $1 AND status = 'running' AND jobs @> jsonb_build_array(jsonb_build_object('jobId', $2::text))`,
      [id, jobId],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** Stops the worker and returns the jobs it still held: what it must release (the database's list, not the process's memory). */
  async stopHolding(id: string): Promise<HeldJob[]> {
    const [rows] = (await this.dataSource.query(
      `WITH was AS (SELECT id, jobs FROM eval_workers WHERE id = $1 FOR UPDATE)
       UPDATE eval_workers w SET status = 'stopped', stopped_at = now(), jobs = '[]'::jsonb FROM was WHERE w.id = was.id
       RETURNING was.jobs`,
      [id],
    )) as [Array<{ jobs: HeldJob[] }>, number];
    return rows[0]?.jobs ?? [];
  }

  /** Workers silent for longer than `staleMs`, declared dead by this call (each by exactly one caller). */
  async declareDead(staleMs: number): Promise<DeadWorker[]> {
    const [rows] = (await this.dataSource.query(
      `UPDATE eval_workers SET status = 'dead', stopped_at = now()
        WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => $1::double precision / 1000)
        RETURNING id, name, pid, jobs`,
      [staleMs],
    )) as [Array<{ id: string; name: string; pid: number; jobs: HeldJob[] }>, number];
    return rows.map((r) => ({ id: r.id, name: r.name, pid: Number(r.pid), jobs: r.jobs }));
  }

  /** A released trial: marked interrupted (unless it reached a verdict first), its session closed as interrupted and kept. */
  async interruptTrial(job: HeldJob, workerPid: number, why: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE eval_trials SET status = 'interrupted', error = $2, finished_at = now() WHERE id = $1 AND status = 'running'`,
      [job.trialId, why],
    );
    const [session] = (await this.dataSource.query(`SELECT status FROM sessions WHERE id = $1`, [job.sessionId])) as Array<{
      status: string;
    }>;
    if (session?.status === 'running') await this.stale.markInterrupted(job.sessionId, workerPid);
  }
}
