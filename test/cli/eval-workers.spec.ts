// Queued runs and `loupe worker`: several workers on this machine, each with its own OLLAMA_HOST (a
// `loupe standin` process of a different capacity) and as many slots, one of them killed (kill -9)
// while it holds trials. Every trial ends exactly once, the run completes (the others pick up what
// the dead one held once its heartbeat is stale), its results equal a one-worker run's, `eval status`
// shows the progress per worker, and `--queue --wait` reports the run with the verdict's exit code.
// And a scripted run taken by a worker whose OLLAMA_HOST is a stand-in serving other replies still
// replays each scenario's own script.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { CLI_CASES_AT_ONCE, concurrentCases, once } from '../support/concurrency';
import { comparableReport } from '../support/comparable-report';
import { killHard, loupeEnv, spawnLoupe, until, type LoupeProcess } from '../support/loupe-process';
import { untilOutput } from '../support/wait';
import { runCli, waitForListening } from '../support/run-cli';
import { createTestDatabase } from '../support/test-app';

const MODEL = 'queue:1b';
const ANSWER = 'The task is done.';
const LATENCY_MS = 300;
const TRIALS = 6;
// a worker silent for 1.5 s is dead (its heartbeat every 200 ms)
const FAST_REAP = { LOUPE_WORKER_HEARTBEAT_MS: '200', LOUPE_WORKER_STALE_MS: '1500', LOUPE_WORKER_POLL_MS: '100' };

const catalog = (parallel: number) => [
  `  - name: ${MODEL}`,
  '    family: llama',
  '    parameter_size: 1.0B',
  '    capabilities: [completion, tools]',
  `    parallel: ${parallel}`,
  `    tokens_per_second: ${(ANSWER.split(' ').length * 1_000) / LATENCY_MS}`,
];

function scenario(id: string, success: string, parallel = 1): string {
  return [
    `id: ${id}`,
    `title: ${id}`,
    'spec: test',
    'prompt: Say it is done.',
    `model: ${MODEL}`,
    'catalog:',
    ...catalog(parallel),
    'script:',
    `  - content: ${ANSWER}`,
    'expect:',
    '  - termination: completed',
    'success:',
    `  - final_answer: { contains: ${success} }`,
    '',
  ].join('\n');
}

interface Row {
  id: string;
  key: string;
  status: string;
  replaced_by: string | null;
  worker_id: string | null;
  session_id: string | null;
}

describe('queued runs and loupe worker', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-workers-'));
  const suite = path.join(tmp, 'suite');
  const standins: LoupeProcess[] = [];
  const urls = new Map<number, string>();
  const children: LoupeProcess[] = [];
  // the cases are separate databases and homes, and mostly wait on replies, heartbeats and idle exits:
  // side by side, sharing the stand-ins (started by the first case to need them)
  const concurrently = concurrentCases(CLI_CASES_AT_ONCE);

  const standinsUp = once(async () => {
    fs.mkdirSync(suite);
    fs.writeFileSync(path.join(suite, 'done.yaml'), scenario('queue/done', 'done'));
    fs.writeFileSync(path.join(suite, 'task.yaml'), scenario('queue/task', 'task'));
    // success criteria the reply never meets: the run has failures to count too
    fs.writeFileSync(path.join(suite, 'never.yaml'), scenario('queue/never', 'weekend'));
    // one stand-in per capacity, each the OLLAMA_HOST of a worker with as many slots
    for (const p of [1, 2, 3]) {
      const file = path.join(tmp, `standin-p${p}.yaml`);
      fs.writeFileSync(file, scenario(`standin/p${p}`, 'done', p));
      const s = spawnLoupe(['standin', '--scenario', file, '--port', '0', '--loop'], loupeEnv({}));
      standins.push(s);
      urls.set(p, await waitForListening(s));
    }
  });

  afterAll(async () => {
    for (const c of [...children, ...standins]) await killHard(c);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const url = async (p: number) => {
    await standinsUp();
    return urls.get(p)!;
  };
  const envFor = async (name: string, extra: Record<string, string> = {}) => {
    await standinsUp();
    return loupeEnv({ DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, name), ...FAST_REAP, ...extra });
  };
  const spawnChild = (args: string[], env: Record<string, string>) => {
    const c = spawnLoupe(args, env);
    children.push(c);
    return c;
  };
  const worker = (env: Record<string, string>, p: number, name: string, idleExitMs = 4_000) =>
    spawnChild(['worker', '--slots', String(p), '--name', name, '--idle-exit', String(idleExitMs)], { ...env, OLLAMA_HOST: urls.get(p)! });
  const queuedRunId = async (waiter: LoupeProcess) => {
    await untilOutput(waiter, () => /^run [0-9a-f-]{36} queued/m.test(waiter.err()) || waiter.exitCode !== null, {
      what: 'the run to be queued',
      timeoutMs: 60_000,
    });
    const m = /^run ([0-9a-f-]{36}) queued: (\d+) trials/m.exec(waiter.err());
    if (!m) throw new Error(`eval --queue did not queue a run: ${waiter.err()}`);
    return { runId: m[1], trials: Number(m[2]) };
  };

  async function rows(db: Client, runId: string): Promise<Row[]> {
    return (
      await db.query<Row>(
        `SELECT id, scenario_id || '|' || model || '|' || config_key || '|' || trial_index AS key, status, replaced_by, worker_id, session_id
           FROM eval_trials WHERE run_id = $1`,
        [runId],
      )
    ).rows;
  }

  concurrently(
    'spreads a live run over workers of different capacities, survives one killed mid-run, and reports what one worker reports',
    async () => {
      // the reference: one worker (2 slots) runs the whole queued run; --wait reports it with the verdict's exit code.
      // On a database of its own, it runs while the three workers below run theirs; it is awaited where it is compared
      const referenceRun = (async () => {
        const oneEnv = await envFor('one', { OLLAMA_HOST: await url(2) });
        const oneWaiter = spawnChild(['eval', suite, '--queue', '--wait', '--json', '-t', String(TRIALS)], oneEnv);
        const one = await queuedRunId(oneWaiter);
        expect(one.trials).toBe(3 * TRIALS);
        const soloWorker = worker(oneEnv, 2, 'solo', 1_500);
        expect(await oneWaiter.exited).toBe(1); // queue/never fails
        const reference = JSON.parse(oneWaiter.out());
        expect(reference.summary).toEqual({ passed: 2 * TRIALS, failed: TRIALS, unjudged: 0, errored: 0, notRun: 0, trials: 3 * TRIALS });
        expect(reference.runId).toBe(one.runId);
        expect(await soloWorker.exited).toBe(0);
        expect(soloWorker.err()).toContain(`worker: ${3 * TRIALS} trial(s) taken`);
        return reference;
      })();
      // a failure is reported where it is awaited, not as an unhandled rejection meanwhile
      referenceRun.catch(() => undefined);

      // three workers (1, 2 and 3 slots against stand-ins of those capacities); the 3-slot one is killed holding trials
      const env = await envFor('many', { OLLAMA_HOST: await url(1) });
      const queued = await runCli(['eval', suite, '--queue', '-t', String(TRIALS)], env);
      expect(queued.code).toBe(0);
      const runId = queued.stdout.trim();
      expect(queued.stderr).toContain(`run ${runId} queued: ${3 * TRIALS} trials`);
      const before = await runCli(['eval', 'status', runId, '--json'], env);
      expect(JSON.parse(before.stdout)).toEqual(
        expect.objectContaining({ runId, status: 'queued', trials: 3 * TRIALS, done: 0, waiting: 3 * TRIALS, workers: [] }),
      );
      const db = new Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      try {
        const workers = [worker(env, 1, 'w1'), worker(env, 2, 'w2'), worker(env, 3, 'w3')];
        const victim = workers[2];
        let held: Row[] = [];
        await until('w3 to hold trials mid-run', async () => {
          const all = await rows(db, runId).catch(() => [] as Row[]);
          const w3 = (await db.query(`SELECT id FROM eval_workers WHERE name = 'w3'`).catch(() => ({ rows: [] }))).rows[0]?.id as
            string | undefined;
          held = all.filter((r) => r.worker_id === w3 && r.status === 'running');
          return held.length > 0 && all.filter((r) => r.status !== 'running').length >= 3;
        });
        await killHard(victim);
        const w3Id = (await db.query(`SELECT id FROM eval_workers WHERE name = 'w3'`)).rows[0].id as string;
        // what it held when it died (the rows a dead process can no longer change)
        held = (await rows(db, runId)).filter((r) => r.worker_id === w3Id && r.status === 'running');
        expect(held.length).toBeGreaterThan(0);
        // its sessions as the kill left them: one may have ended just before the kill, its trial not yet recorded
        const atKill = new Map<string, { status: string; termination_reason: string | null }>();
        for (const r of held) {
          const q = await db.query(`SELECT id, status, termination_reason FROM sessions WHERE trial_id = $1`, [r.id]);
          for (const s of q.rows) atKill.set(s.id as string, { status: s.status as string, termination_reason: s.termination_reason });
        }
        // the survivors finish the run: the dead one's trials released once its heartbeat is stale, then run again
        for (const w of workers.slice(0, 2)) expect(await w.exited).toBe(0);
        const [run] = (await db.query(`SELECT status, trial_count, passed, failed, errored FROM eval_runs WHERE id = $1`, [runId])).rows;
        expect(run).toEqual({ status: 'finished', trial_count: 3 * TRIALS, passed: 2 * TRIALS, failed: TRIALS, errored: 0 });

        // every trial ended exactly once: one final row per planned trial, nothing else but the released attempts
        const all = await rows(db, runId);
        const final = all.filter((r) => ['passed', 'failed', 'error'].includes(r.status));
        expect(final).toHaveLength(3 * TRIALS);
        expect(new Set(final.map((r) => r.key)).size).toBe(3 * TRIALS);
        expect(final.every((r) => r.replaced_by === null)).toBe(true);
        const released = all.filter((r) => !final.includes(r));
        expect(released.map((r) => r.id).sort()).toEqual(held.map((r) => r.id).sort());
        for (const r of released) {
          expect(r).toEqual(expect.objectContaining({ status: 'interrupted', worker_id: w3Id }));
          const next = all.find((x) => x.id === r.replaced_by)!;
          expect(next).toEqual(expect.objectContaining({ key: r.key, status: expect.stringMatching(/passed|failed/) }));
          expect(next.worker_id).not.toBe(w3Id);
          // its partial session kept: one under way at the kill closed as interrupted, one already ended keeps its row
          const sessions = (await db.query(`SELECT id, status, termination_reason FROM sessions WHERE trial_id = $1`, [r.id])).rows;
          for (const s of sessions) {
            const before = atKill.get(s.id as string);
            const row = { status: s.status, termination_reason: s.termination_reason };
            if (before?.status === 'finished') expect(row).toEqual(before);
            else expect(row).toEqual({ status: 'finished', termination_reason: 'interrupted' });
          }
        }
        // the queue holds nothing of the run any more
        const jobs = (await db.query(`SELECT state, count(*)::int AS n FROM pgboss.job WHERE data->>'runId' = $1 GROUP BY state`, [runId]))
          .rows;
        expect(jobs).toEqual([{ state: 'completed', n: 3 * TRIALS }]);
        // each worker ran something (the capacities differ, the work spreads)
        const byWorker = (
          await db.query(
            `SELECT w.name, count(*)::int AS n FROM eval_trials t JOIN eval_workers w ON w.id = t.worker_id
           WHERE t.run_id = $1 AND t.status IN ('passed', 'failed') GROUP BY w.name ORDER BY w.name`,
            [runId],
          )
        ).rows as Array<{ name: string; n: number }>;
        expect(byWorker.map((w) => w.name).filter((n) => n !== 'w3')).toEqual(['w1', 'w2']);

        // the run's report equals the one-worker run's
        const report = await runCli(['eval', 'resume', runId, '--json'], env);
        expect(report.code).toBe(1);
        expect(comparableReport(JSON.parse(report.stdout))).toEqual(comparableReport(await referenceRun));

        // eval status: per worker, what each did
        const status = await runCli(['eval', 'status', runId, '--json'], env);
        expect(status.code).toBe(0);
        const s = JSON.parse(status.stdout);
        expect(s).toEqual(
          expect.objectContaining({
            runId,
            status: 'finished',
            trials: 3 * TRIALS,
            done: 3 * TRIALS,
            waiting: 0,
            totals: { running: 0, passed: 2 * TRIALS, failed: TRIALS, unjudged: 0, error: 0, interrupted: released.length },
          }),
        );
        const names = (s.workers as Array<{ name: string }>).map((w) => w.name);
        expect(names).toEqual(['w1', 'w2', 'w3']);
        const w3 = s.workers.find((w: { name: string }) => w.name === 'w3');
        expect(w3).toEqual(
          expect.objectContaining({ status: 'dead', slots: 3, ollamaHost: urls.get(3), interrupted: released.length, running: 0 }),
        );
        for (const w of s.workers.filter((x: { name: string }) => x.name !== 'w3'))
          expect(w).toEqual(expect.objectContaining({ status: 'stopped', interrupted: 0, running: 0 }));
        const sum = (k: string) => s.workers.reduce((n: number, w: Record<string, number>) => n + w[k], 0);
        expect([sum('passed'), sum('failed')]).toEqual([2 * TRIALS, TRIALS]);
        const text = await runCli(['eval', 'status', runId], env);
        expect(text.stdout).toContain(`run ${runId}  finished  ${3 * TRIALS}/${3 * TRIALS} trials done`);
        expect(text.stdout).toMatch(/^WORKER\s+HOST\s+PID\s+OLLAMA_HOST\s+SLOTS\s+STATE/m);
        expect(text.stdout).toMatch(new RegExp(`^w3 .* ${urls.get(3)!.replace(/[.]/g, '\\.')}\\s+3\\s+dead`, 'm'));
      } finally {
        await db.end();
      }
    },
    300_000,
  );

  concurrently(
    'a worker told to stop (SIGTERM) lets its trials go at once: another worker reruns them, each trial ends once',
    async () => {
      // a stale heartbeat would take a minute here: the release must come from the stopping worker itself
      const env = await envFor('sigterm', { OLLAMA_HOST: await url(3), LOUPE_WORKER_STALE_MS: '60000' });
      const waiter = spawnChild(['eval', suite, '--queue', '--wait', '--json', '-t', String(TRIALS)], env);
      const { runId, trials } = await queuedRunId(waiter);
      const db = new Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      try {
        const leaving = worker(env, 3, 'leaving', 60_000);
        let held: Row[] = [];
        await until('the worker to hold trials', async () => {
          held = (await rows(db, runId).catch(() => [] as Row[])).filter((r) => r.status === 'running');
          return held.length > 0;
        });
        leaving.kill('SIGTERM');
        expect(await leaving.exited).toBe(130);
        // everything it held is back in the queue: none of its trials is left running (the failure this guards
        // against left two of three 'running' when the sessions' own shutdown finished first, and the run never ended)
        const stuck = (await rows(db, runId)).filter((r) => r.status === 'running');
        expect(stuck).toEqual([]);
        const stayingStart = Date.now();
        const staying = worker(env, 2, 'staying', 1_500);
        expect(await waiter.exited).toBe(1);
        expect(Date.now() - stayingStart).toBeLessThan(45_000);
        expect(await staying.exited).toBe(0);
        const report = JSON.parse(waiter.out());
        expect(report.summary).toEqual({ passed: 2 * TRIALS, failed: TRIALS, unjudged: 0, errored: 0, notRun: 0, trials });
        const all = await rows(db, runId);
        const final = all.filter((r) => ['passed', 'failed', 'unjudged', 'error'].includes(r.status));
        expect(new Set(final.map((r) => r.key)).size).toBe(trials);
        expect(final).toHaveLength(trials);
        const released = all.filter((r) => !final.includes(r));
        expect(released.length).toBeGreaterThan(0);
        for (const r of released) {
          expect(r).toEqual(expect.objectContaining({ status: 'interrupted', replaced_by: expect.any(String) }));
          // its session stopped by the worker and kept, not left running
          const sessions = (await db.query(`SELECT status FROM sessions WHERE trial_id = $1`, [r.id])).rows;
          for (const x of sessions) expect(x).toEqual({ status: 'finished' });
        }
        const [w] = (await db.query(`SELECT status, jobs FROM eval_workers WHERE name = 'leaving'`)).rows;
        expect(w).toEqual({ status: 'stopped', jobs: [] });
      } finally {
        await db.end();
      }
    },
    180_000,
  );

  concurrently(
    "runs a scripted run's trials on their own scripts, whatever the worker's OLLAMA_HOST serves",
    async () => {
      // the worker's OLLAMA_HOST answers "The task is done." to anything; the scenarios' scripts say otherwise
      const env = await envFor('scripted');
      const waiter = spawnChild(['eval', 'scenarios/nudges', '--queue', '--wait', '--json'], env);
      const { trials } = await queuedRunId(waiter);
      const w = worker(env, 2, 'scripted', 1_500);
      expect(await waiter.exited).toBe(0);
      const report = JSON.parse(waiter.out());
      expect(report.summary).toEqual({ passed: trials, failed: 0, unjudged: 0, errored: 0, notRun: 0, trials });
      expect(report.mode).toBe('scripted');
      expect(await w.exited).toBe(0);
    },
    120_000,
  );
});
