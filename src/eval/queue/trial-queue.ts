// Trials of queued runs as pg-boss jobs in the Loupe database (pg-boss 10: its 11+ line needs Node
// 22). Two queues: trials that need a real Ollama (live runs, replays that send misses on) and trials
// any worker can run (stand-ins, replays). pg-boss runs over Loupe's own connection pool, and any of
// its calls can run inside a caller's transaction (`tx`), so claiming a job and recording who holds it
// is one commit. pg-boss 10 only polls (its LISTEN/NOTIFY came in 12), so new jobs are announced on
// a channel of our own: workers sleep until told, and poll only as a safety net.
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type PgBoss from 'pg-boss';
import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { LOUPE_CONFIG } from '../../config/config.module';
import type { LoupeConfig } from '../../config/loupe-config';

export const STANDIN_QUEUE = 'loupe-trials';
export const OLLAMA_QUEUE = 'loupe-trials-ollama';
export type TrialQueueName = typeof STANDIN_QUEUE | typeof OLLAMA_QUEUE;
/** NOTIFY channel: jobs were queued or released (the payload names the queue) */
export const TRIALS_CHANNEL = 'loupe_trials';

/** One trial of a queued run: enough for any worker sharing the database to run it. */
export interface TrialJobData {
  runId: string;
  /** the job's place in the run's plan */
  index: number;
  scenarioId: string;
  /** as the run was given it (relative to the working directory) */
  scenarioFile: string;
  scenarioHash: string;
  model: string;
  configKey: string;
  config: Record<string, unknown>;
  trial: number;
}

export type TrialJob = PgBoss.Job<TrialJobData>;

/** pg-boss's executor over a client we hold (a transaction) or the pool. */
function executor(db: Pool | PoolClient): PgBoss.Db {
  return { executeSql: (text, values) => db.query(text, values) };
}

@Injectable()
export class TrialQueue implements OnModuleDestroy {
  private readonly logger = new Logger('Queue');
  private starting?: Promise<PgBoss>;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
  ) {}

  get pool(): Pool {
    return (this.dataSource.driver as unknown as { master: Pool }).master;
  }

  private boss(): Promise<PgBoss> {
    this.starting ??= (async () => {
      // loaded when a queue is first used: a plain `loupe eval` never needs it (about 100 modules)
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const PgBossClass = require('pg-boss') as typeof PgBoss;
      const boss = new PgBossClass({
        db: executor(this.pool),
        schedule: false,
        // expiry is the safety net behind the workers' heartbeats: it must outlast any trial
        expireInSeconds: this.config.worker.jobExpireSeconds,
        retryLimit: 1000,
        retryDelay: 0,
      });
      boss.on('error', (e) => this.logger.warn(`pg-boss: ${e.message}`));
      await boss.start();
      for (const name of [STANDIN_QUEUE, OLLAMA_QUEUE]) if (!(await boss.getQueue(name))) await boss.createQueue(name);
      return boss;
    })();
    return this.starting;
  }

  async enqueue(queue: TrialQueueName, jobs: TrialJobData[], tx: PoolClient): Promise<void> {
    const boss = await this.boss();
    await boss.insert(
      jobs.map((data) => ({ name: queue, data, retryLimit: 1000, retryDelay: 0, expireInSeconds: this.config.worker.jobExpireSeconds })),
      { db: executor(tx) },
    );
    // delivered when the caller's transaction commits: a worker never wakes before the jobs are visible
    await tx.query(`SELECT pg_notify($1, $2)`, [TRIALS_CHANNEL, queue]);
  }

  /**
   * Calls `onJobs` whenever jobs are queued or released, over a connection of its own (held until the
   * returned stop is called). A lost connection is reported to `onLost`; the caller listens again.
   */
  async listen(onJobs: () => void, onLost: (e: Error) => void): Promise<() => Promise<void>> {
    const client = await this.pool.connect();
    let released = false;
    const release = (e?: Error) => {
      if (released) return;
      released = true;
      client.off('notification', onJobs);
      client.release(e);
    };
    client.on('notification', onJobs);
    client.once('error', (e: Error) => {
      release(e);
      onLost(e);
    });
    try {
      await client.query(`LISTEN ${TRIALS_CHANNEL}`);
    } catch (e) {
      release(e as Error);
      throw e;
    }
    return async () => {
      if (released) return;
      await client.query(`UNLISTEN ${TRIALS_CHANNEL}`).catch(() => undefined);
      release();
    };
  }

  async fetch(queue: TrialQueueName, n: number, tx: PoolClient): Promise<TrialJob[]> {
    const boss = await this.boss();
    return boss.fetch<TrialJobData>(queue, { batchSize: n, db: executor(tx) });
  }

  async complete(queue: TrialQueueName, id: string, tx?: PoolClient): Promise<void> {
    await (await this.boss()).complete(queue, id, {}, { db: executor(tx ?? this.pool) });
  }

  /** Back in the queue for another worker (a released trial: its worker died or let it go). */
  async release(queue: TrialQueueName, ids: string[], reason: string): Promise<void> {
    const boss = await this.boss();
    for (const id of ids) await boss.fail(queue, id, { reason });
    if (ids.length) await this.pool.query(`SELECT pg_notify($1, $2)`, [TRIALS_CHANNEL, queue]);
  }

  /** Jobs of a run not yet done (waiting, or held by a worker). */
  async pending(runId: string): Promise<{ waiting: number; active: number }> {
    await this.boss();
    const [row] = (
      await this.pool.query(
        `SELECT count(*) FILTER (WHERE state IN ('created', 'retry'))::int AS waiting, count(*) FILTER (WHERE state = 'active')::int AS active
           FROM pgboss.job WHERE name = ANY($1) AND data->>'runId' = $2`,
        [[STANDIN_QUEUE, OLLAMA_QUEUE], runId],
      )
    ).rows as Array<{ waiting: number; active: number }>;
    return row ?? { waiting: 0, active: 0 };
  }

  /** A transaction on a client of its own. */
  async transaction<T>(fn: (tx: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  async onModuleDestroy(): Promise<void> {
    const boss = await this.starting?.catch(() => undefined);
    // jobs are failed by their holders themselves (or by the heartbeat reaper), never by pg-boss on stop
    await boss?.stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
  }
}
