import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Runs and cells count their unjudged trials (no check applied: never a pass) beside passed, failed
 * and errored. Rows written before are backfilled from their trials; a cell's count is its run's
 * trials of that scenario, model and configuration.
 */
export class UnjudgedCounts1764700000000 implements MigrationInterface {
  name = 'UnjudgedCounts1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE eval_runs ADD COLUMN IF NOT EXISTS unjudged int NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE eval_cells ADD COLUMN IF NOT EXISTS unjudged int NOT NULL DEFAULT 0`);
    await q.query(
      `UPDATE eval_runs r SET unjudged = (SELECT count(*) FROM eval_trials t WHERE t.run_id = r.id AND t.status = 'unjudged' AND t.replaced_by IS NULL)`,
    );
    await q.query(
      `UPDATE eval_cells c SET unjudged = (SELECT count(*) FROM eval_trials t
         WHERE t.run_id = c.run_id AND t.scenario_id = c.scenario_id AND t.model = c.model AND t.config_key = c.config_key
           AND t.status = 'unjudged' AND t.replaced_by IS NULL)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE eval_cells DROP COLUMN IF EXISTS unjudged`);
    await q.query(`ALTER TABLE eval_runs DROP COLUMN IF EXISTS unjudged`);
  }
}
