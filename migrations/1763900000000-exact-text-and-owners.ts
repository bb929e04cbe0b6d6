import type { MigrationInterface, QueryRunner } from 'typeorm';

const WITH_TEXT = ['sessions', 'messages', 'iterations', 'tool_calls', 'events', 'eval_runs', 'eval_trials'];

/**
 * `originals`: the exact values of fields Postgres could not store as they were (NUL, lone
 * surrogates), as JSON; the stored columns hold a readable form. Owner pid and host become columns:
 * the stale-session reaper queries them.
 */
export class ExactTextAndOwners1763900000000 implements MigrationInterface {
  name = 'ExactTextAndOwners1763900000000';

  async up(q: QueryRunner): Promise<void> {
    for (const t of WITH_TEXT) await q.query(`ALTER TABLE ${t} ADD COLUMN originals text`);
    for (const [t, json] of [
      ['sessions', 'config'],
      ['eval_runs', 'options'],
    ]) {
      await q.query(`ALTER TABLE ${t} ADD COLUMN owner_pid int, ADD COLUMN owner_host text`);
      await q.query(`UPDATE ${t} SET owner_pid = (${json}->>'ownerPid')::int, owner_host = ${json}->>'ownerHost'`);
      await q.query(`UPDATE ${t} SET ${json} = ${json} - 'ownerPid' - 'ownerHost'`);
      await q.query(`CREATE INDEX ${t}_running_owner_idx ON ${t} (owner_host, owner_pid) WHERE status = 'running'`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [t, json] of [
      ['sessions', 'config'],
      ['eval_runs', 'options'],
    ]) {
      await q.query(`UPDATE ${t} SET ${json} = ${json} || jsonb_build_object('ownerPid', owner_pid, 'ownerHost', owner_host)`);
      await q.query(`ALTER TABLE ${t} DROP COLUMN owner_pid, DROP COLUMN owner_host`);
    }
    for (const t of WITH_TEXT) await q.query(`ALTER TABLE ${t} DROP COLUMN originals`);
  }
}
