import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reproducible and scalable runs: every model request and response of a recorded run
 * (`eval_exchanges`, keyed by trial — so by model, trial index and attempt — upstream and position in
 * the session, with the request's content hash), trials that can be interrupted and rerun (`attempt`,
 * `replaced_by`) and taken by a worker (`worker_id`), and the workers of queued runs (`eval_workers`:
 * their host, OLLAMA_HOST, slots, heartbeat and the jobs they hold).
 */
export class RecordResumeWorkers1764500000000 implements MigrationInterface {
  name = 'RecordResumeWorkers1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE eval_trials
      ADD COLUMN attempt int NOT NULL DEFAULT 1,
      ADD COLUMN replaced_by uuid,
      ADD COLUMN worker_id uuid`);
    await q.query(`CREATE INDEX eval_trials_job_idx ON eval_trials (run_id, scenario_id, model, config_key, trial_index, attempt)`);
    await q.query(`
      CREATE TABLE eval_exchanges (
        trial_id uuid NOT NULL REFERENCES eval_trials(id) ON DELETE CASCADE,
        upstream text NOT NULL,
        kind text NOT NULL,
        position int NOT NULL,
        run_id uuid NOT NULL,
        trial_index int NOT NULL,
        model text NOT NULL,
        model_digest text,
        method text NOT NULL,
        path text NOT NULL,
        request jsonb,
        request_hash text NOT NULL,
        status int,
        headers jsonb NOT NULL,
        headers_at_ms double precision,
        chunks jsonb NOT NULL,
        ending text NOT NULL,
        ended_at_ms double precision NOT NULL,
        error text,
        recorded_at timestamptz NOT NULL,
        originals text,
        PRIMARY KEY (trial_id, upstream, kind, position)
      )`);
    await q.query(
      `CREATE INDEX eval_exchanges_key_idx ON eval_exchanges (run_id, model, model_digest, trial_index, position, request_hash)`,
    );
    await q.query(`
      CREATE TABLE eval_workers (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        host text NOT NULL,
        pid int NOT NULL,
        ollama_host text,
        slots int NOT NULL,
        status text NOT NULL,
        started_at timestamptz NOT NULL,
        heartbeat_at timestamptz NOT NULL,
        stopped_at timestamptz,
        jobs jsonb NOT NULL DEFAULT '[]'::jsonb
      )`);
    await q.query(`CREATE INDEX eval_workers_alive_idx ON eval_workers (status, heartbeat_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE eval_workers`);
    await q.query(`DROP TABLE eval_exchanges`);
    await q.query(`DROP INDEX eval_trials_job_idx`);
    await q.query(`ALTER TABLE eval_trials DROP COLUMN attempt, DROP COLUMN replaced_by, DROP COLUMN worker_id`);
  }
}
