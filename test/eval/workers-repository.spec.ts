// What a stopping worker releases comes from the database: the jobs it holds there, whatever its
// process still remembers (the sessions' own shutdown may already have ended the trials in memory).
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { STANDIN_QUEUE, TrialQueue } from '../../src/eval/queue/trial-queue';
import { WorkersRepository, type HeldJob } from '../../src/eval/queue/workers.repository';
import { createTestApp, type TestApp } from '../support/test-app';

describe('WorkersRepository.stopHolding', () => {
  let t: TestApp;
  let workers: WorkersRepository;
  let queue: TrialQueue;

  beforeAll(async () => {
    t = await createTestApp();
    workers = t.app.get(WorkersRepository);
    queue = t.app.get(TrialQueue);
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
    await queue.transaction(async (tx) => {
      expect(await workers.hold(tx, id, [a, b])).toBe(true);
      expect(await workers.hold(tx, id, [c])).toBe(true);
      // one finished and closed normally: not released
      expect(await workers.drop(tx, id, b.jobId)).toBe(true);
    });
    expect(await workers.stopHolding(id)).toEqual([a, c]);
    expect(await workers.stopHolding(id)).toEqual([]);
    const [row] = await t.app.get(DataSource).query(`SELECT status, jobs FROM eval_workers WHERE id = $1`, [id]);
    expect(row).toEqual({ status: 'stopped', jobs: [] });
    // a stopped worker can hold nothing more
    await queue.transaction(async (tx) => expect(await workers.hold(tx, id, [job()])).toBe(false));
  });

  it('returns nothing for a worker it does not know', async () => {
    expect(await workers.stopHolding(randomUUID())).toEqual([]);
  });
});
