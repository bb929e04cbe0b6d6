// `loupe eval status` and the worker that closes a run read counters a trigger keeps as trials change
// (O(1) per trial); whatever is written to eval_trials, they must say exactly what counting the run's
// trials says. And a worker hears of queued jobs when their transaction commits, not before.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RunStatusRepository } from '../../src/eval/queue/run-status.repository';
import { STANDIN_QUEUE, TrialQueue } from '../../src/eval/queue/trial-queue';
import { createTestApp, type TestApp } from '../support/test-app';

describe('run trial counters', () => {
  let t: TestApp;
  let db: DataSource;
  let status: RunStatusRepository;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    status = t.app.get(RunStatusRepository);
  });
  afterAll(() => t.close());

  async function newRun(jobCount: number): Promise<string> {
    const id = randomUUID();
    await db.query(`INSERT INTO eval_runs (id, status, started_at, config) VALUES ($1, 'running', now(), $2)`, [
      id,
      JSON.stringify({ jobCount }),
    ]);
    return id;
  }

  async function trial(runId: string, key: { scenario: string; index: number }, st: string, worker: string | null = null): Promise<string> {
    const id = randomUUID();
    await db.query(
      `INSERT INTO eval_trials (id, run_id, scenario_id, scenario_title, scenario_file, scenario_hash, model, trial_index, status, started_at, worker_id)
       VALUES ($1, $2, $3, 't', 'f.yaml', 'h', 'm', $4, $5, now(), $6)`,
      [id, runId, key.scenario, key.index, st, worker],
    );
    return id;
  }

  /** What counting the trials says (the queries the counters replace). */
  async function counted(runId: string) {
    const rows = (await db.query(
      `SELECT worker_id, status, count(*)::int AS n FROM eval_trials WHERE run_id = $1 GROUP BY worker_id, status`,
      [runId],
    )) as Array<{ worker_id: string | null; status: string; n: number }>;
    const [{ done }] = (await db.query(
      `SELECT count(DISTINCT (scenario_id, model, config_key, trial_index))::int AS done FROM eval_trials
        WHERE run_id = $1 AND status = ANY($2)`,
      [runId, ['passed', 'failed', 'unjudged', 'error']],
    )) as Array<{ done: number }>;
    return { rows, done };
  }

  async function expectSame(runId: string): Promise<void> {
    const s = (await status.status(runId))!;
    const c = await counted(runId);
    expect(s.done).toBe(c.done);
    const totals = { running: 0, passed: 0, failed: 0, unjudged: 0, error: 0, interrupted: 0 };
    for (const r of c.rows) if (r.status in totals) totals[r.status as keyof typeof totals] += r.n;
    expect(s.totals).toEqual(totals);
    const perWorker = (id: string | null) =>
      c.rows.filter((r) => r.worker_id === id).reduce((n, r) => n + (r.status in totals ? r.n : 0), 0);
    for (const w of s.workers) {
      const { running, passed, failed, unjudged, error, interrupted } = w;
      expect(running + passed + failed + unjudged + error + interrupted).toBe(perWorker(w.id));
    }
  }

  it('follows inserts, status changes, a trial moved between workers, second attempts and deletes', async () => {
    const runId = await newRun(3);
    const w1 = randomUUID();
    const w2 = randomUUID();
    for (const w of [w1, w2])
      await db.query(
        `INSERT INTO eval_workers (id, name, host, pid, slots, status, started_at, heartbeat_at, jobs) VALUES ($1, $2, 'h', 1, 1, 'running', now(), now(), '[]')`,
        [w, `w-${w}`],
      );
    const a = await trial(runId, { scenario: 's', index: 0 }, 'running', w1);
    const b = await trial(runId, { scenario: 's', index: 1 }, 'running', null);
    await expectSame(runId);
    expect((await status.status(runId))!.done).toBe(0);

    await db.query(`UPDATE eval_trials SET status = 'passed' WHERE id = $1`, [a]);
    await db.query(`UPDATE eval_trials SET status = 'interrupted' WHERE id = $1`, [b]);
    await expectSame(runId);
    expect((await status.status(runId))!.done).toBe(1);

    // a second attempt at b, on another worker, judged: one more planned trial done
    const b2 = await trial(runId, { scenario: 's', index: 1 }, 'running', w2);
    await db.query(`UPDATE eval_trials SET status = 'error', iterations = 3 WHERE id = $1`, [b2]);
    await expectSame(runId);
    expect((await status.status(runId))!.done).toBe(2);

    // a third attempt at b judged too: still one planned trial (DISTINCT), counted once
    const b3 = await trial(runId, { scenario: 's', index: 1 }, 'failed', w1);
    await expectSame(runId);
    expect((await status.status(runId))!.done).toBe(2);

    // a row changing worker and status at once; a final row going back to non-final while another attempt stays final
    await db.query(`UPDATE eval_trials SET worker_id = $2, status = 'unjudged' WHERE id = $1`, [a, w2]);
    await db.query(`UPDATE eval_trials SET status = 'interrupted' WHERE id = $1`, [b2]);
    await expectSame(runId);
    expect((await status.status(runId))!.done).toBe(2);

    // the last final attempt of b deleted: b is not done any more
    await db.query(`DELETE FROM eval_trials WHERE id = $1`, [b3]);
    await expectSame(runId);
    expect((await status.status(runId))!.done).toBe(1);
    // an update that changes neither status nor worker leaves the counters alone
    await db.query(`UPDATE eval_trials SET iterations = 9 WHERE run_id = $1`, [runId]);
    await expectSame(runId);
  });

  it('goes with its run when the run is deleted', async () => {
    const runId = await newRun(1);
    await trial(runId, { scenario: 's', index: 0 }, 'passed');
    await db.query(`DELETE FROM eval_runs WHERE id = $1`, [runId]);
    expect(await db.query(`SELECT * FROM eval_run_counts WHERE run_id = $1`, [runId])).toEqual([]);
    expect(await db.query(`SELECT * FROM eval_run_progress WHERE run_id = $1`, [runId])).toEqual([]);
  });
});

describe('queue notifications', () => {
  let t: TestApp;
  let queue: TrialQueue;

  beforeAll(async () => {
    t = await createTestApp();
    queue = t.app.get(TrialQueue);
  });
  afterAll(() => t.close());

  it('tells a listener of jobs once the transaction that queued them commits, and not before', async () => {
    let heard = 0;
    let onHeard: () => void = () => undefined;
    const unlisten = await queue.listen(
      () => {
        heard++;
        onHeard();
      },
      (e) => {
        throw e;
      },
    );
    try {
      const runId = randomUUID();
      const committed = new Promise<void>((resolve) => (onHeard = resolve));
      await queue.transaction(async (tx) => {
        await queue.enqueue(
          STANDIN_QUEUE,
          [
            {
              runId,
              index: 0,
              scenarioId: 's',
              scenarioFile: 'f.yaml',
              scenarioHash: 'h',
              model: 'm',
              configKey: '',
              config: {},
              trial: 0,
            },
          ],
          tx,
        );
        // a round trip on another connection: a notification sent before the commit would have arrived by now
        await queue.pool.query('SELECT 1');
        expect(heard).toBe(0);
      });
      await committed;
      expect(heard).toBe(1);
      await queue.transaction(async (tx) => {
        const [job] = await queue.fetch(STANDIN_QUEUE, 1, tx);
        await queue.complete(STANDIN_QUEUE, job.id, tx);
      });
    } finally {
      await unlisten();
    }
  });
});
