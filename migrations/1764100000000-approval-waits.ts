import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Time spent waiting for approvals, kept apart from the working time it would otherwise inflate. */
export class ApprovalWaits1764100000000 implements MigrationInterface {
  name = 'ApprovalWaits1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions ADD COLUMN approval_wait_ms int NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE iterations ADD COLUMN approval_wait_ms int NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE iterations DROP COLUMN approval_wait_ms`);
    await q.query(`ALTER TABLE sessions DROP COLUMN approval_wait_ms`);
  }
}
