import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A run's trial counts kept as its trials change, so that a worker closing a trial and `loupe eval
 * status` read a few counter rows instead of counting the run's trials (O(1) per trial, not O(run)):
 * - eval_run_counts: trials per (run, worker, status), exactly what `GROUP BY worker_id, status` gave;
 * - eval_run_progress.done: planned trials (scenario × model × configuration × index) with at least one
 *   attempt in a final status, exactly what `count(DISTINCT key) WHERE status = ANY(final)` gave.
 * A trigger on eval_trials maintains both, whoever writes the rows (the journal's batches, the workers,
 * the stale-session sweep). Existing runs are backfilled from their trials.
 */
export class RunTrialCounts1764944000000 implements MigrationInterface {
  name = 'RunTrialCounts1764944000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE eval_run_counts (
        run_id uuid NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
        -- '' for the eval process itself (worker_id NULL): a primary key cannot hold NULL
        worker_key text NOT NULL,
        status text NOT NULL,
        n int NOT NULL,
        PRIMARY KEY (run_id, worker_key, status)
      )`);
    await q.query(`
      CREATE TABLE eval_run_progress (
        run_id uuid PRIMARY KEY REFERENCES eval_runs(id) ON DELETE CASCADE,
        done int NOT NULL
      )`);
    await q.query(`
      CREATE FUNCTION eval_trials_count() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        final_statuses text[] := ARRAY['passed', 'failed', 'unjudged', 'error'];
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND (TG_OP = 'DELETE' OR OLD.status IS DISTINCT FROM NEW.status OR OLD.worker_id IS DISTINCT FROM NEW.worker_id) THEN
          -- no insert on the way down: a run being deleted takes its counters with it
          UPDATE eval_run_counts SET n = n - 1
           WHERE run_id = OLD.run_id AND worker_key = coalesce(OLD.worker_id::text, '') AND status = OLD.status;
          IF OLD.status = ANY(final_statuses) AND (TG_OP = 'DELETE' OR NOT NEW.status = ANY(final_statuses)) AND NOT EXISTS (
              SELECT 1 FROM eval_trials t WHERE t.run_id = OLD.run_id AND t.scenario_id = OLD.scenario_id AND t.model = OLD.model
                 AND t.config_key = OLD.config_key AND t.trial_index = OLD.trial_index AND t.id <> OLD.id AND t.status = ANY(final_statuses)) THEN
            UPDATE eval_run_progress SET done = done - 1 WHERE run_id = OLD.run_id;
          END IF;
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.worker_id IS DISTINCT FROM NEW.worker_id)) THEN
          INSERT INTO eval_run_counts AS c (run_id, worker_key, status, n) VALUES (NEW.run_id, coalesce(NEW.worker_id::text, ''), NEW.status, 1)
            ON CONFLICT (run_id, worker_key, status) DO UPDATE SET n = c.n + 1;
          IF NEW.status = ANY(final_statuses) AND (TG_OP = 'INSERT' OR NOT OLD.status = ANY(final_statuses)) AND NOT EXISTS (
              SELECT 1 FROM eval_trials t WHERE t.run_id = NEW.run_id AND t.scenario_id = NEW.scenario_id AND t.model = NEW.model
                 AND t.config_key = NEW.config_key AND t.trial_index = NEW.trial_index AND t.id <> NEW.id AND t.status = ANY(final_statuses)) THEN
            INSERT INTO eval_run_progress AS p (run_id, done) VALUES (NEW.run_id, 1) ON CONFLICT (run_id) DO UPDATE SET done = p.done + 1;
          END IF;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER eval_trials_count AFTER INSERT OR UPDATE OR DELETE ON eval_trials FOR EACH ROW EXECUTE FUNCTION eval_trials_count()`,
    );
    await q.query(`
      INSERT INTO eval_run_counts (run_id, worker_key, status, n)
      SELECT run_id, coalesce(worker_id::text, ''), status, count(*) FROM eval_trials GROUP BY 1, 2, 3`);
    await q.query(`
      INSERT INTO eval_run_progress (run_id, done)
      SELECT run_id, count(DISTINCT (scenario_id, model, config_key, trial_index)) FROM eval_trials
       WHERE status = ANY(ARRAY['passed', 'failed', 'unjudged', 'error']) GROUP BY run_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS eval_trials_count ON eval_trials`);
    await q.query(`DROP FUNCTION IF EXISTS eval_trials_count()`);
    await q.query(`DROP TABLE IF EXISTS eval_run_progress`);
    await q.query(`DROP TABLE IF EXISTS eval_run_counts`);
  }
}
