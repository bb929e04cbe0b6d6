import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The eval as evidence: what a run varied (models × configurations × trials) and what each trial
 * ran against (hashes, model digest, Ollama version, Loupe revision), each trial's outcome (pathologies,
 * tokens, latency split, invariant violations), and the statistics per cell and rolled up — stored, so
 * the API, the viewer and the dashboards read them rather than recompute them.
 */
export class EvalEvidence1764200000000 implements MigrationInterface {
  name = 'EvalEvidence1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE eval_runs ADD COLUMN config jsonb NOT NULL DEFAULT '{}'::jsonb, ADD COLUMN statistics jsonb`);
    await q.query(`ALTER TABLE eval_trials
      ADD COLUMN config_key text NOT NULL DEFAULT '',
      ADD COLUMN config jsonb NOT NULL DEFAULT '{}'::jsonb,
      ADD COLUMN mode text NOT NULL DEFAULT 'scripted',
      ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      ADD COLUMN outcome jsonb,
      ADD COLUMN invariant_violations jsonb NOT NULL DEFAULT '[]'::jsonb`);
    await q.query(`CREATE INDEX eval_trials_cell_idx ON eval_trials (run_id, scenario_id, model, config_key)`);
    await q.query(`
      CREATE TABLE eval_cells (
        run_id uuid NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
        key text NOT NULL,
        scenario_id text NOT NULL,
        model text NOT NULL,
        config_key text NOT NULL,
        config jsonb NOT NULL DEFAULT '{}'::jsonb,
        trials int NOT NULL,
        passed int NOT NULL,
        failed int NOT NULL,
        errored int NOT NULL,
        statistics jsonb NOT NULL,
        originals text,
        PRIMARY KEY (run_id, key)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE eval_cells`);
    await q.query(`DROP INDEX eval_trials_cell_idx`);
    await q.query(
      `ALTER TABLE eval_trials DROP COLUMN config_key, DROP COLUMN config, DROP COLUMN mode, DROP COLUMN metadata, DROP COLUMN outcome, DROP COLUMN invariant_violations`,
    );
    await q.query(`ALTER TABLE eval_runs DROP COLUMN config, DROP COLUMN statistics`);
  }
}
