// `loupe eval resume RUN` after a kill -9 of `loupe eval` at seeded random moments (before the run
// begins, mid-run, after the last trial): no finished trial redone (its row and session unchanged),
// none lost (every planned trial ends with exactly one final row that nothing replaced), the
// interrupted ones rerun as new attempts with their partial sessions kept and marked, and the
// resumed run's statistics equal those of an uninterrupted run of the same suite. And the refusals.
// LOUPE_RESUME_SEED reproduces a failing sequence of kill moments.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Client } from 'pg';
import { comparableReport } from '../support/comparable-report';
import { seededRandom } from '../../src/common/seeded-random';
import { finishedLines, killHard, loupeEnv, spawnLoupe, type LoupeProcess } from '../support/loupe-process';
import { runCli } from '../support/run-cli';
import { createTestDatabase } from '../support/test-app';
import { untilOutput, waitUntil } from '../support/wait';

const SEED = Number(process.env.LOUPE_RESUME_SEED ?? 1414);
const SUITE = ['scenarios/loop-control', 'scenarios/nudges'];
const ARGS = ['-t', '2', '-c', '3', '--json'];

interface TrialRow {
  id: string;
  scenario_id: string;
  model: string;
  config_key: string;
  trial_index: number;
  status: string;
  session_id: string | null;
  attempt: number;
  replaced_by: string | null;
  finished_at: Date | null;
  duration_ms: number | null;
}
interface SessionRow {
  id: string;
  trial_id: string | null;
  status: string;
  termination_reason: string | null;
  events: number;
}

const FINAL = ['passed', 'failed', 'error'];

/** Where an early kill lands: as the process starts, once it has migrated the database, once it announces the run. */
const EARLY_STAGES = ['spawned', 'migrated', 'announced'] as const;

async function beforeTheRun(child: LoupeProcess, db: Client, stage: (typeof EARLY_STAGES)[number], where: string): Promise<void> {
  if (stage === 'spawned') await once(child, 'spawn');
  // the schema is the child's own doing in Postgres: nothing announces it, so it is looked for
  else if (stage === 'migrated')
    await waitUntil(
      async () => {
        if (child.exitCode !== null) return true; // over already: killHard finds it gone
        return (await db.query(`SELECT to_regclass('eval_runs') IS NOT NULL AS yes`)).rows[0].yes as boolean;
      },
      { what: `the migrated database in ${where}`, context: () => child.err() },
    );
  else await untilOutput(child, () => /^run [0-9a-f-]{36} /m.test(child.err()), { what: `the run's announcement in ${where}` });
}

const key = (t: Pick<TrialRow, 'scenario_id' | 'model' | 'config_key' | 'trial_index'>) =>
  `${t.scenario_id}|${t.model}|${t.config_key}|${t.trial_index}`;

describe('loupe eval resume', () => {
  let tmp: string;
  let extra: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-resume-'));
    extra = path.join(tmp, 'extra');
    fs.mkdirSync(extra);
    // a slow trial (kills land inside it) and one that fails its expectations (the statistics are not all passes)
    fs.writeFileSync(
      path.join(extra, 'slow.yaml'),
      [
        'id: resume/slow',
        'title: a slow reply',
        'spec: test',
        'prompt: go',
        'script:',
        '  - content: The task is done, as asked.',
        '    fault: { kind: delay_first_byte, ms: 400 }',
        'expect:',
        '  - termination: completed',
        '',
      ].join('\n'),
    );
    fs.writeFileSync(
      path.join(extra, 'fails.yaml'),
      [
        'id: resume/fails',
        'title: expects a tool call that never comes',
        'spec: test',
        'prompt: go',
        'script:',
        '  - content: The task is done without any tool.',
        'expect:',
        '  - termination: completed',
        '  - tool_calls: 1',
        '',
      ].join('\n'),
    );
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const suite = () => [...SUITE, extra];
  const envFor = async (name: string) => loupeEnv({ DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, name) });

  async function snapshot(db: Client, runId: string): Promise<{ trials: TrialRow[]; sessions: SessionRow[] }> {
    const trials = (
      await db.query<TrialRow>(
        `SELECT id, scenario_id, model, config_key, trial_index, status, session_id, attempt, replaced_by, finished_at, duration_ms
           FROM eval_trials WHERE run_id = $1 ORDER BY id`,
        [runId],
      )
    ).rows;
    const sessions = (
      await db.query<SessionRow>(
        `SELECT s.id, s.trial_id, s.status, s.termination_reason, (SELECT count(*)::int FROM events e WHERE e.session_id = s.id) AS events
           FROM sessions s JOIN eval_trials t ON t.id = s.trial_id WHERE t.run_id = $1 ORDER BY s.id`,
        [runId],
      )
    ).rows;
    return { trials, sessions };
  }

  it(`keeps what finished, reruns what was interrupted, loses nothing, and reports what an uninterrupted run reports (seed ${SEED})`, async () => {
    const baselineRun = await runCli(['eval', ...suite(), ...ARGS], await envFor('baseline'), { timeoutMs: 120_000 });
    expect(baselineRun.code).toBe(1); // resume/fails fails
    const baseline = JSON.parse(baselineRun.stdout);
    const planned = baseline.summary.trials as number;
    expect(baseline.summary.failed).toBeGreaterThan(0);
    expect(baseline.summary.passed).toBeGreaterThan(0);

    const random = seededRandom(SEED);
    // before the run begins, three moments mid-run, after the last trial (while the statistics are written)
    const moments: Array<'early' | 'mid' | 'late'> = ['early', 'mid', 'mid', 'late', 'mid'];
    const seen = { early: 0, killedMidTrial: 0, late: 0, resumeKilled: 0 };
    for (const [i, moment] of moments.entries()) {
      const where = `iteration ${i} (${moment}, seed ${SEED})`;
      const env = await envFor(`kill-${i}`);
      const db = new Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      const child = spawnLoupe(['eval', ...suite(), ...ARGS], env);
      try {
        // each kill follows what the child was seen to do, never a lapse of time
        if (moment === 'early') await beforeTheRun(child, db, EARLY_STAGES[Math.floor(random() * EARLY_STAGES.length)], where);
        else {
          // mid: with trials still to come (some running beside it at -c 3); late: once the last is reported
          const after = moment === 'late' ? planned : 1 + Math.floor(random() * (planned - 2));
          await untilOutput(child, () => finishedLines(child.err()).length >= after, {
            what: `${after} finished trials in ${where}`,
            timeoutMs: 120_000,
          });
        }
        await killHard(child);
        const announced = /^run ([0-9a-f-]{36}) /m.exec(child.err())?.[1];
        // killed before its migrations, there is not even a table
        const migrated = (await db.query(`SELECT to_regclass('eval_runs') IS NOT NULL AS yes`)).rows[0].yes as boolean;
        const runs = migrated ? (await db.query<{ id: string }>(`SELECT id FROM eval_runs`)).rows : [];
        if (!runs.length) {
          // killed before the run began: nothing to resume, and nothing was announced as resumable
          expect({ where, announced }).toEqual({ where, announced: undefined });
          seen.early++;
          continue;
        }
        expect(runs).toHaveLength(1);
        const runId = runs[0].id;
        if (announced) expect(announced).toBe(runId);
        // every trial the killed process reported finished is recorded with its verdict
        const before = await snapshot(db, runId);
        const reported = finishedLines(child.err()).length;
        expect({ where, final: before.trials.filter((t) => FINAL.includes(t.status)).length >= reported }).toEqual({ where, final: true });
        if (before.trials.some((t) => !FINAL.includes(t.status))) seen.killedMidTrial++;
        if (before.trials.filter((t) => FINAL.includes(t.status)).length === planned) seen.late++;

        if (i === 2) {
          // the resume itself killed once it has run a trial: resumed again, nothing of either is lost
          const first = spawnLoupe(['eval', 'resume', runId], env);
          await untilOutput(first, () => finishedLines(first.err()).length >= 1, {
            what: `a trial of the first resume in ${where}`,
            timeoutMs: 120_000,
          });
          await killHard(first);
          seen.resumeKilled++;
        }
        const resumed = await runCli(['eval', 'resume', runId, '--json'], env, { timeoutMs: 120_000 });
        expect({ where, code: resumed.code, stderr: resumed.code === 1 ? '' : resumed.stderr.slice(-2_000) }).toEqual({
          where,
          code: 1,
          stderr: '',
        });
        const report = JSON.parse(resumed.stdout);
        expect(report.runId).toBe(runId);
        expect({ where, ...comparableReport(report) }).toEqual({ where, ...comparableReport(baseline) });
        expect(report.storage?.mismatched ?? []).toEqual([]); // none when the run had finished: nothing ran

        const after = await snapshot(db, runId);
        const rowsAfter = new Map(after.trials.map((t) => [t.id, t]));
        const sessionsAfter = new Map(after.sessions.map((s) => [s.id, s]));
        // no finished trial redone: its row and its session exactly as they were
        for (const t of before.trials.filter((x) => FINAL.includes(x.status))) {
          expect({ where, row: rowsAfter.get(t.id) }).toEqual({ where, row: t });
          for (const s of before.sessions.filter((x) => x.trial_id === t.id))
            expect({ where, session: sessionsAfter.get(s.id) }).toEqual({ where, session: s });
        }
        // the interrupted ones: kept, marked, replaced by a new attempt that reached a verdict; their partial sessions kept
        const interrupted = before.trials.filter((x) => !FINAL.includes(x.status));
        for (const t of interrupted) {
          const now = rowsAfter.get(t.id)!;
          expect({ where, status: now.status, replaced: Boolean(now.replaced_by) }).toEqual({
            where,
            status: 'interrupted',
            replaced: true,
          });
          // the chain of attempts (more than one when a resume was killed too) ends in a verdict
          let next = rowsAfter.get(now.replaced_by!)!;
          let attempt = t.attempt + 1;
          for (; !FINAL.includes(next.status); attempt++) {
            expect({ where, key: key(next), attempt: next.attempt, status: next.status, replaced: Boolean(next.replaced_by) }).toEqual({
              where,
              key: key(t),
              attempt,
              status: 'interrupted',
              replaced: true,
            });
            next = rowsAfter.get(next.replaced_by!)!;
          }
          expect({ where, key: key(next), attempt: next.attempt, replaced: next.replaced_by }).toEqual({
            where,
            key: key(t),
            attempt,
            replaced: null,
          });
          // a session cut off is closed as interrupted; one that ended before its trial's verdict was written stays as it ended
          for (const s of before.sessions.filter((x) => x.trial_id === t.id))
            expect({ where, session: sessionsAfter.get(s.id) }).toEqual({
              where,
              session:
                s.status === 'running'
                  ? expect.objectContaining({ id: s.id, trial_id: t.id, status: 'finished', termination_reason: 'interrupted' })
                  : s,
            });
        }
        // none lost, none twice: exactly one final, unreplaced row per planned trial
        const current = after.trials.filter((t) => t.replaced_by === null);
        expect({
          where,
          n: current.length,
          keys: new Set(current.map(key)).size,
          final: current.every((t) => FINAL.includes(t.status)),
        }).toEqual({ where, n: planned, keys: planned, final: true });
        // everything else is an interrupted attempt that something replaced
        const replaced = after.trials.filter((t) => t.replaced_by !== null);
        expect({ where, replaced: replaced.every((t) => t.status === 'interrupted' && rowsAfter.has(t.replaced_by!)) }).toEqual({
          where,
          replaced: true,
        });
        if (i !== 2) expect({ where, rows: after.trials.length }).toEqual({ where, rows: planned + interrupted.length });
        const [run] = (await db.query(`SELECT status, trial_count, passed, failed, errored FROM eval_runs WHERE id = $1`, [runId])).rows;
        expect({ where, run }).toEqual({
          where,
          run: { status: 'finished', trial_count: planned, passed: baseline.summary.passed, failed: baseline.summary.failed, errored: 0 },
        });
        // a finished run is not run again: resuming it reports it
        const again = await runCli(['eval', 'resume', runId, '--json'], env);
        expect({ where, code: again.code, err: again.stderr }).toEqual({
          where,
          code: 1,
          err: expect.stringContaining(`run ${runId} is finished (${planned} trials): nothing to resume`),
        });
        expect({ where, ...comparableReport(JSON.parse(again.stdout)) }).toEqual({ where, ...comparableReport(baseline) });
        expect({ where, rows: (await snapshot(db, runId)).trials }).toEqual({ where, rows: after.trials });
      } finally {
        await killHard(child);
        await db.end();
      }
    }
    // the seeded moments covered a kill inside trials, and one after the last trial
    expect(seen.killedMidTrial).toBeGreaterThan(0);
    expect(seen.early + seen.late).toBeGreaterThan(0);
    expect(seen.resumeKilled).toBe(1);
  }, 600_000);

  it('refuses a run that is still running, one owned by another host unless forced, and a run that does not exist', async () => {
    const env = await envFor('refusals');
    const child = spawnLoupe(['eval', path.join(extra, 'slow.yaml'), '-t', '40'], env);
    let runId: string;
    try {
      await untilOutput(child, () => /^run [0-9a-f-]{36} /m.test(child.err()), { what: 'the run to begin' });
      runId = /^run ([0-9a-f-]{36}) /m.exec(child.err())![1];
      const busy = await runCli(['eval', 'resume', runId], env);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(`run ${runId} is still running (pid ${child.pid})`);
      expect(busy.stdout).toBe('');
    } finally {
      await killHard(child);
    }
    // as if the run's process were on another machine: its liveness cannot be checked from here
    const db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    try {
      await db.query(`UPDATE eval_runs SET owner_host = 'gpu-elsewhere', owner_pid = 4242, status = 'running' WHERE id = $1`, [runId]);
      const elsewhere = await runCli(['eval', 'resume', runId], env);
      expect(elsewhere.code).toBe(2);
      expect(elsewhere.stderr).toContain(
        `run ${runId} is running on gpu-elsewhere (pid 4242); if that process is gone, resume with --force`,
      );
      const forced = await runCli(['eval', 'resume', runId, '--force', '-c', '8', '--json'], env, { timeoutMs: 120_000 });
      expect(forced.code).toBe(0);
      expect(JSON.parse(forced.stdout).summary).toEqual({ passed: 40, failed: 0, unjudged: 0, errored: 0, notRun: 0, trials: 40 });
      const current = (await db.query(`SELECT count(*)::int AS n FROM eval_trials WHERE run_id = $1 AND replaced_by IS NULL`, [runId]))
        .rows;
      expect(current).toEqual([{ n: 40 }]);
    } finally {
      await db.end();
    }
    const unknown = randomUUID();
    const missing = await runCli(['eval', 'resume', unknown], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no eval run ${unknown}`);
    const malformed = await runCli(['eval', 'resume', 'not-a-run'], env);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/not-a-run: not a run id/);
  }, 120_000);
});
