import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin API and the viewer list sessions by model, status, termination reason and eval run,
 * newest first: indexes for those filters (the run filter goes through sessions.trial_id).
 */
export class SessionFilters1764300000000 implements MigrationInterface {
  name = 'SessionFilters1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX sessions_model_started_idx ON sessions (model, started_at DESC)`);
    await q.query(`CREATE INDEX sessions_status_started_idx ON sessions (status, started_at DESC)`);
    await q.query(`CREATE INDEX sessions_termination_started_idx ON sessions (termination_reason, started_at DESC)`);
    await q.query(`CREATE INDEX sessions_trial_idx ON sessions (trial_id)`);
    await q.query(`CREATE INDEX eval_runs_started_idx ON eval_runs (started_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX eval_runs_started_idx`);
    await q.query(`DROP INDEX sessions_trial_idx`);
    await q.query(`DROP INDEX sessions_termination_started_idx`);
    await q.query(`DROP INDEX sessions_status_started_idx`);
    await q.query(`DROP INDEX sessions_model_started_idx`);
  }
}
