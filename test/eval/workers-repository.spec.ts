// What a stopping worker releases comes from the database: the jobs it holds there, whatever its
// process still remembers (the sessions' own shutdown may already have ended the trials in memory).
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import { STANDIN_QUEUE } from '../../src/eval/queue/trial-queue';
import { WorkersRepository, type HeldJob } from '../../src/eval/queue/workers.repository';
import { createTestApp, type TestApp } from '../support/test-app';

describe('WorkersRepository.stopHolding', () => {
  let t: TestApp;
  let workers: WorkersRepository;
  let pool: Pool;

  beforeAll(async () => {
    t = await createTestApp();
    workers = t.app.get(WorkersRepository);
    pool = (t.app.get(DataSource).driver as unknown as { master: Pool }).master;
  });
  afterAll(() => t.close());

  const job = (): HeldJob => ({
    jobId: randomUUID(),
    queue: STANDIN_QUEUE,
    runId: randomUUID(),
    trialId: randomUUID(),
    sessionId: randomUUID(),
  });

  it('returns every job the worker still holds, stops it, and holds nothing afterwards', async () => {
    const id = randomUUID();
    await workers.register({ id, name: 'w', host: 'h', pid: 1, ollamaHost: null, slots: 3 });
    const [a, b, c] = [job(), job(), job()];
    const client = await pool.connect();
    try {
      expect(await workers.hold(client, id, [a, b])).toBe(true);
      expect(await workers.hold(client, id, [c])).toBe(true);
      // one finished and closed normally: not released
      expect(await workers.drop(client, id, b.jobId)).toBe(true);
    } finally {
      client.release();
    }
    expect(await workers.stopHolding(id)).toEqual([a, c]);
    expect(await workers.stopHolding(id)).toEqual([]);
    const [row] = await t.app.get(DataSource).query(`SELECT status, jobs FROM eval_workers WHERE id = $1`, [id]);
    expect(row).toEqual({ status: 'stopped', jobs: [] });
    // a stopped worker can hold nothing more
    const again = await pool.connect();
    try {
      expect(await workers.hold(again, id, [job()])).toBe(false);
    } finally {
      again.release();
    }
  });

  it('returns nothing for a worker it does not know', async () => {
    expect(await workers.stopHolding(randomUUID())).toEqual([]);
  });
});
