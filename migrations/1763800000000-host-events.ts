import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Host-level events (model pulls, deletes) belong to no session. */
export class HostEvents1763800000000 implements MigrationInterface {
  name = 'HostEvents1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ALTER COLUMN session_id DROP NOT NULL`);
    await q.query(`CREATE INDEX events_host_idx ON events (created_at) WHERE session_id IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX events_host_idx`);
    await q.query(`DELETE FROM events WHERE session_id IS NULL`);
    await q.query(`ALTER TABLE events ALTER COLUMN session_id SET NOT NULL`);
  }
}
