// The fault suite: the whole scenario suite at -c 8 through the built CLI on the embedded defaults,
// while the embedded Postgres is killed (and restarted by Loupe), and while a Loupe process is
// killed and started again. Counted, not sampled: every trial finishes exactly once, every event of
// every finished session is present, and the exit codes are the verdicts. The figures are written
// to test-output/fault-suite.json.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { dataDirFor, runningPostmaster, startEmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { fallbackDataRoot } from '../../src/database/embedded/postgres-binaries';
import type { TrialReport } from '../../src/eval/eval-types';
import { suiteTrials } from '../support/suite-trials';
import { ROOT } from '../support/run-cli';
import { untilOutput } from '../support/wait';

const SCENARIOS = path.join(ROOT, 'scenarios');
const OUT = path.join(ROOT, 'test-output');
/** trials of one run of the whole suite */
const SCENARIO_COUNT = suiteTrials(SCENARIOS);

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  finished: () => number;
  exited: Promise<number | string | null>;
}

function evalRun(home: string, args: string[]): Run {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'DATABASE_URL' && k !== 'OLLAMA_HOST') env[k] = v;
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'loupe.js'), 'eval', SCENARIOS, ...args], {
    env: { ...env, LOUPE_HOME: home },
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | string | null>((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  return { child, out: () => out, err: () => err, finished: () => (err.match(/^[✓✗!] /gm) ?? []).length, exited };
}

/** Resolves once the run's output shows `holds` (each trial's line, Loupe's warnings on stderr). */
function until(run: Run, what: string, holds: () => boolean, timeoutMs = 120_000): Promise<void> {
  return untilOutput(run.child, holds, { what, timeoutMs, context: () => `stderr: …${run.err().slice(-1_500)}` });
}

async function withDb<T>(home: string, fn: (db: Client) => Promise<T>): Promise<T> {
  const pg = await startEmbeddedPostgres(home, () => {});
  const db = new Client({ connectionString: pg.url });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
    await pg.stop();
  }
}

/** Sessions of a run whose events are not a gap-free sequence ending in session_finished: their number of missing events. */
async function lostEvents(db: Client, runId: string, statuses: string[]): Promise<{ sessions: number; finished: number; lost: number }> {
  const rows = (
    await db.query(
      `
    SELECT s.id, s.status, count(e.*)::int AS n, coalesce(max(e.seq), -1) AS last_seq,
           coalesce(bool_or(e.type = 'session_finished' AND e.seq = (SELECT max(seq) FROM events WHERE session_id = s.id)), false) AS ends_finished
      FROM sessions s JOIN eval_trials t ON t.session_id = s.id LEFT JOIN events e ON e.session_id = s.id
     WHERE t.run_id = $1 AND t.status = ANY($2) GROUP BY s.id`,
      [runId, statuses],
    )
  ).rows;
  let lost = 0;
  for (const r of rows) lost += r.last_seq + 1 - r.n + (r.ends_finished ? 0 : 1);
  return { sessions: rows.length, finished: rows.filter((r) => r.status === 'finished').length, lost };
}

/** Events whose session row does not exist (the journal writes a session's row before its events). */
async function orphanEvents(db: Client): Promise<number> {
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM events e WHERE e.session_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = e.session_id)`,
  );
  return rows[0].n;
}

function notPassed(report: { trials: TrialReport[] }) {
  return report.trials
    .filter((t) => t.status !== 'passed')
    .map((t) => ({
      trial: `${t.scenarioId} #${t.trial} ${t.configKey}`,
      status: t.status,
      failed: t.failedExpectations,
      violations: t.invariantViolations,
      error: t.error,
    }));
}

describe('fault suite (built CLI, embedded Postgres, -c 8)', () => {
  let tmp: string;
  const figures: Record<string, unknown> = {};
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-faults-'));
  });
  afterAll(() => {
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(path.join(OUT, 'fault-suite.json'), `${JSON.stringify(figures, null, 2)}\n`);
    process.stderr.write(`fault suite: ${JSON.stringify(figures)}\n`);
    // as root the embedded Postgres keeps the data of a home under a private temp dir in /var/tmp
    for (const home of fs.readdirSync(tmp)) fs.rmSync(fallbackDataRoot(path.join(tmp, home)), { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('survives the embedded Postgres being killed twice mid-run: every trial once, nothing lost, exit 0', async () => {
    const home = path.join(tmp, 'pg-kills');
    const trials = SCENARIO_COUNT * 2;
    const run = evalRun(home, ['-c', '8', '-t', '2', '--json']);
    const dataDir = dataDirFor(home, () => {});
    const kills: number[] = [];
    for (const after of [10, Math.floor(trials / 2)]) {
      await until(run, `${after} trials`, () => run.finished() >= after);
      const server = runningPostmaster(dataDir);
      expect(server).toBeDefined();
      process.kill(server!.pid, 'SIGKILL');
      kills.push(server!.pid);
      // the next kill only once the server is back (Loupe says so on stderr, a warning)
      await until(run, 'the restart', () => (run.err().match(/embedded Postgres is back on port/g) ?? []).length >= kills.length, 60_000);
      expect(runningPostmaster(dataDir)?.pid).not.toBe(server!.pid);
    }
    const code = await run.exited;
    const report = JSON.parse(run.out());
    const counts = await withDb(home, async (db) => ({
      trials: (
        await db.query(
          `SELECT count(*)::int AS n, count(DISTINCT id)::int AS d, count(*) FILTER (WHERE status = 'passed')::int AS passed FROM eval_trials WHERE run_id = $1`,
          [report.runId],
        )
      ).rows[0],
      restarts: (await db.query(`SELECT count(*)::int AS n FROM events WHERE session_id IS NULL AND type = 'database_restarted'`)).rows[0]
        .n,
      events: await lostEvents(db, report.runId, ['passed', 'failed', 'error']),
      orphans: await orphanEvents(db),
    }));
    figures.postgresKills = {
      trials,
      faultsInjected: kills.length,
      restartsRecorded: counts.restarts,
      exitCode: code,
      ...report.summary,
      eventsLost: counts.events.lost,
    };
    // the trials that did not pass, with their reasons, before the counts: a count alone says nothing of why
    expect(notPassed(report)).toEqual([]);
    expect(code).toBe(0);
    expect(report.summary).toEqual(expect.objectContaining({ passed: trials, failed: 0, errored: 0, notRun: 0 }));
    expect(counts.trials).toEqual({ n: trials, d: trials, passed: trials });
    expect(counts.restarts).toBe(kills.length);
    expect(counts.events).toEqual({ sessions: trials, finished: trials, lost: 0 });
    // events carry no foreign key (it cost a third of the journal's throughput): the journal's write order must keep them owned
    expect(counts.orphans).toBe(0);
  }, 300_000);

  it('survives a Loupe process killed mid-run and started again: finished trials kept, the killed run closed, the rerun complete', async () => {
    const home = path.join(tmp, 'process-kill');
    const first = evalRun(home, ['-c', '8', '--json']);
    await until(first, 'a third of the trials', () => first.finished() >= Math.floor(SCENARIO_COUNT / 3));
    first.child.kill('SIGKILL');
    const firstCode = await first.exited;
    const finishedBeforeKill = first.finished();

    const second = evalRun(home, ['-c', '8', '--json']);
    const secondCode = await second.exited;
    const report = JSON.parse(second.out());
    const counts = await withDb(home, async (db) => {
      const runs = (await db.query(`SELECT id, status, trial_count FROM eval_runs ORDER BY started_at`)).rows;
      const killed = runs.find((r) => r.id !== report.runId)!;
      const killedTrials = (
        await db.query(`SELECT status, count(*)::int AS n FROM eval_trials WHERE run_id = $1 GROUP BY status`, [killed.id])
      ).rows;
      return {
        killed,
        killedTrials: Object.fromEntries(killedTrials.map((r) => [r.status, r.n])),
        // finished before the kill: every event there; interrupted: closed with session_finished
        killedLost: await lostEvents(db, killed.id, ['passed', 'failed']),
        // sessions the killed process had running: closed as interrupted by the next start
        interrupted: (
          await db.query(
            `SELECT count(*)::int AS n FROM sessions s JOIN eval_trials t ON s.trial_id = t.id
                                       WHERE t.run_id = $1 AND s.termination_reason = 'interrupted'`,
            [killed.id],
          )
        ).rows[0].n,
        running: (await db.query(`SELECT count(*)::int AS n FROM sessions WHERE status = 'running'`)).rows[0].n,
        rerun: await lostEvents(db, report.runId, ['passed', 'failed', 'error']),
        orphans: await orphanEvents(db),
        rerunTrials: (
          await db.query(
            `SELECT count(*)::int AS n, count(DISTINCT (scenario_id, config_key))::int AS d FROM eval_trials WHERE run_id = $1`,
            [report.runId],
          )
        ).rows[0],
      };
    });
    figures.processKill = {
      trials: SCENARIO_COUNT,
      faultsInjected: 1,
      exitCodes: [firstCode, secondCode],
      finishedBeforeKill,
      killedRun: {
        status: counts.killed.status,
        trials: counts.killedTrials,
        interruptedSessions: counts.interrupted,
        eventsLost: counts.killedLost.lost,
      },
      rerun: { ...report.summary, eventsLost: counts.rerun.lost },
    };
    expect(firstCode).toBe('SIGKILL');
    expect(notPassed(report)).toEqual([]);
    expect(secondCode).toBe(0);
    expect(counts.killed.status).toBe('interrupted');
    expect(counts.killedTrials.passed).toBeGreaterThanOrEqual(finishedBeforeKill);
    expect(counts.killedLost.lost).toBe(0);
    expect(counts.running).toBe(0);
    expect(report.summary).toEqual(expect.objectContaining({ passed: SCENARIO_COUNT, failed: 0, errored: 0, notRun: 0 }));
    expect(counts.rerunTrials).toEqual({ n: SCENARIO_COUNT, d: SCENARIO_COUNT });
    expect(counts.rerun).toEqual({ sessions: SCENARIO_COUNT, finished: SCENARIO_COUNT, lost: 0 });
    expect(counts.orphans).toBe(0);
  }, 300_000);
});
