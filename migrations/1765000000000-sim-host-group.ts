import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Simulated models (`sim:<persona>`, trial mode `sim`) run on a fresh stand-in per trial, as scripted
 * trials do: the dashboards count their hosts as the one `stand-in` series too, not one host per trial.
 */
export class SimHostGroup1765000000000 implements MigrationInterface {
  name = 'SimHostGroup1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(hostGroup(`trial_mode IN ('scripted', 'sim')`));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(hostGroup(`trial_mode = 'scripted'`));
  }
}

function hostGroup(standinTrial: string): string {
  return `
      CREATE OR REPLACE FUNCTION loupe_host_group(host text, trial_mode text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
          WHEN ${standinTrial} THEN 'stand-in'
          WHEN trial_mode IS NULL AND host ~ '^https?://(127\\.[0-9.]+|localhost|\\[::1\\]):[0-9]+/?$' AND host !~ ':11434/?$' THEN 'stand-in'
          ELSE host END
      $$`;
}
