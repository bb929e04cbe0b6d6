// The embedded Postgres as users meet it: the built CLI, no DATABASE_URL, the server started by the
// process under test. Verdicts hold (exit codes), a second Loupe process never loses the database
// when the first one leaves, and a server that dies mid-run is restarted — or, when it cannot be,
// the run stops loudly with its results and every unwritten entry spilled.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { dataDirFor, runningPostmaster, startEmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { suiteTrials } from '../support/suite-trials';
import { closedPort } from '../provider/provider-test-kit';
import { ROOT, runCli } from '../support/run-cli';
import { untilOutput } from '../support/wait';

const SCENARIOS = path.join(ROOT, 'scenarios');
const NORMAL = path.join(SCENARIOS, 'direct-process', 'normal-tool-loop-completion.yaml');
/** trials of one run of the whole suite */
const SCENARIO_COUNT = suiteTrials(SCENARIOS);

function baseEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'DATABASE_URL' && k !== 'OLLAMA_HOST') env[k] = v;
  return { ...env, LOUPE_HOME: home, LOUPE_LOG_LEVEL: 'log', ...extra };
}

type Spawned = ChildProcess & { out: () => string; err: () => string; exited: Promise<number | string | null> };

/** A child Loupe process; `exited` is its exit code, or the signal that ended it (a server re-raises SIGTERM after its shutdown). */
function spawnLoupe(args: string[], env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'loupe.js'), ...args], { env });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | string | null>((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  return Object.assign(child, { out: () => out, err: () => err, exited });
}

/** Reads what a run recorded, holding a lease on the embedded server like any Loupe process. */
async function query<T>(home: string, fn: (db: Client) => Promise<T>): Promise<T> {
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

function cleanup(home: string): void {
  const dataDir = dataDirFor(home, () => {});
  if (dataDir !== path.join(home, 'pg')) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
}

describe('embedded Postgres started by the command itself', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-embedded-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('keeps the verdict: 1 for a failed expectation, 0 for a pass, 2 for bad input, 130 when interrupted', async () => {
    const home = path.join(tmp, 'verdicts');
    const failing = path.join(tmp, 'failing.yaml');
    fs.writeFileSync(
      failing,
      fs
        .readFileSync(NORMAL, 'utf8')
        .replace('  - termination: completed', '  - termination: completed\n  - final_answer_contains: "a phrase the model never says"'),
    );
    try {
      // the first run initialises and starts the server itself: the case where a dependency's exit hook once turned 1 into 0
      const failed = await runCli(['eval', failing], baseEnv(home), { timeoutMs: 120_000 });
      expect(failed.stderr).toMatch(/embedded Postgres started/);
      // written for two profiles (corvid, loupe): it fails under each
      expect(failed.stdout).toMatch(/0 passed, 2 failed/);
      expect(failed.code).toBe(1);
      const passed = await runCli(['eval', NORMAL], baseEnv(home), { timeoutMs: 120_000 });
      expect(passed.code).toBe(0);
      // scenarios users write, each in its own file, run on the embedded defaults
      const evalOf = (name: string, yaml: string) => {
        const file = path.join(tmp, `${name}.yaml`);
        fs.writeFileSync(file, yaml);
        return runCli(['eval', file], baseEnv(home), { timeoutMs: 120_000 });
      };
      // its one trial failed, the run exits 1 (not 2: nothing here is bad input), and stderr says each of `said`
      const failedOnce = (run: Awaited<ReturnType<typeof runCli>>, said: Array<string | RegExp> = []) => {
        for (const s of said) expect(run.stderr).toMatch(s);
        expect(run.stdout).toMatch(/0 passed, 1 failed/);
        expect(run.code).toBe(1);
      };
      // the smallest scenario a user writes (no title, no spec) with an expectation that does not hold
      const minimal = path.join(tmp, 'minimal.yaml');
      failedOnce(
        await evalOf(
          'minimal',
          "id: mine/minimal\nprompt: Say done.\nscript: [{ content: 'Done.' }]\nexpect: [{ termination: max_iterations }]\n",
        ),
      );
      // without a script (a scenario for real models) and without OLLAMA_HOST: said up front, and failed, not bad input
      failedOnce(await evalOf('unscripted', 'id: mine/unscripted\nprompt: Say done.\nexpect: [{ termination: completed }]\n'), [
        'scenario mine/unscripted has no script: the stand-in has nothing to reply; OLLAMA_HOST is unset',
      ]);
      // a scenario written for a real Ollama: valid input, its model unknown to the stand-in; the trial fails
      const realModel = path.join(tmp, 'real-model.yaml');
      failedOnce(
        await evalOf(
          'real-model',
          'id: mine/real-model\nprompt: Say done.\nmodel: llama3.2\nscript:\n  - content: done\nexpect: [{ termination: completed }]\n',
        ),
        ['real-model.yaml:3: scenario mine/real-model names model "llama3.2", which the stand-in does not serve'],
      );
      // false expectations (names the journal does not have, an impossible count): the trial runs and fails, not bad input
      failedOnce(
        await evalOf(
          'false-expectations',
          "id: mine/false-expectations\nprompt: Say done.\nscript: [{ content: 'Done.' }]\nexpect:\n  - event: made_up_event\n  - message: { kind: made_up_kind }\n  - iterations: { min: 3, max: 1 }\n  - request: 0\n  - tool_calls: 1.5\n  - message: { position: -1 }\n  - termination: ''\n  - tools_used: ['']\n  - { file: a.txt, exists: false, contains: x }\n",
        ),
        [
          /false-expectations\.yaml:5: expect\[0\]\.event: unknown event type "made_up_event".*this expectation cannot pass as written.*so it fails/,
          /false-expectations\.yaml:6: expect\[1\]\.message\.kind: unknown message kind "made_up_kind".*this expectation cannot pass as written.*so it fails/,
          /false-expectations\.yaml:7: expect\[2\]\.iterations: min 3 is above max 1.*this expectation cannot pass as written.*so it fails/,
          /false-expectations\.yaml:8: expect\[3\]\.request: 0: a request number .* is never below 1.*cannot pass as written/,
          /false-expectations\.yaml:9: expect\[4\]\.tool_calls: 1\.5: a count is always a whole number.*cannot pass as written/,
          /false-expectations\.yaml:10: expect\[5\]\.message\.position: -1: a transcript position is never negative.*cannot pass as written/,
          /false-expectations\.yaml:11: expect\[6\]\.termination: unknown termination reason "".*cannot pass as written/,
          /false-expectations\.yaml:12: expect\[7\]\.tools_used\[0\]: an empty name names no tool.*cannot pass as written/,
          /false-expectations\.yaml:13: expect\[8\]\.contains: exists: false and contains: .*cannot pass as written/,
        ],
      );
      // a scenario with success criteria only (written for live models), scripted here: judged by them, and false
      failedOnce(
        await evalOf(
          'success-only',
          "id: mine/success-only\nprompt: Say done.\nscript: [{ content: 'Done.' }]\nsuccess:\n  - final_answer: { contains: never said }\n",
        ),
      );
      // malformed expectations (a text where a mapping belongs, an unknown kind) are false ones too: exit 1, not 2
      failedOnce(
        await evalOf(
          'malformed-expectations',
          "id: mine/malformed\nprompt: Say done.\nscript: [{ content: 'Done.' }]\nexpect:\n  - final_answer: goodbye\n  - tool_called: read_file\n",
        ),
        [
          /malformed-expectations\.yaml:5: expect\[0\]\.final_answer: .*cannot pass as written.*so it fails/,
          /malformed-expectations\.yaml:6: expect\[1\]: .*cannot pass as written.*so it fails/,
        ],
      );
      // a model asked for on the command line that the stand-in lacks is bad input for this run
      const unknownFlag = await runCli(['eval', realModel, '-m', 'nope:1b'], baseEnv(home));
      expect(unknownFlag.stderr).toMatch(/-m nope:1b: the Ollama stand-in serves no model "nope:1b"/);
      expect(unknownFlag.code).toBe(2);
      const bad = await runCli(['eval', path.join(tmp, 'missing.yaml')], baseEnv(home));
      expect(bad.code).toBe(2);
      // Ollama down in a live run: bad input found before any trial (the host is checked first), never
      // a run of errored trials, and never a pass on nothing
      const down = await runCli(
        ['eval', minimal, '--json'],
        baseEnv(home, { OLLAMA_HOST: `http://127.0.0.1:${await closedPort()}`, LOUPE_RETRY_DELAY_SCALE: '0.01' }),
        { timeoutMs: 120_000 },
      );
      expect(down.stderr).toMatch(
        /OLLAMA_HOST is not ready for this run, nothing was run:\n {2}Ollama at http:\/\/127\.0\.0\.1:\d+ is unreachable: .*ECONNREFUSED/,
      );
      expect(down.stdout).toBe('');
      expect(down.code).toBe(2);

      const slow = path.join(tmp, 'slow.yaml');
      fs.writeFileSync(
        slow,
        [
          'id: slow',
          'title: slow',
          'spec: test',
          'prompt: go',
          'script:',
          '  - content: never',
          '    fault: { kind: delay_first_byte, ms: 60000 }',
          'expect:',
          '  - termination: completed',
          '',
        ].join('\n'),
      );
      const child = spawnLoupe(['eval', slow], baseEnv(home));
      // the run has begun: SIGINT now stops it (its slow trial interrupted) rather than the start-up
      await untilOutput(child, () => /^run [0-9a-f-]{36} /m.test(child.err()), { what: 'the run to begin', timeoutMs: 60_000 });
      child.kill('SIGINT');
      expect(await child.exited).toBe(130);
      expect(runningPostmaster(dataDirFor(home, () => {}))).toBeUndefined();
    } finally {
      cleanup(home);
    }
  }, 240_000);

  it('is never pulled from under a second Loupe process: the last one to leave stops it', async () => {
    const home = path.join(tmp, 'shared');
    const dataDir = dataDirFor(home, () => {});
    const token = 'shared-token';
    const first = spawnLoupe(['serve'], baseEnv(home, { LOUPE_PORT: '0', LOUPE_ADMIN_TOKEN: token }));
    const second = spawnLoupe(['serve'], baseEnv(home, { LOUPE_PORT: '0', LOUPE_ADMIN_TOKEN: token }));
    try {
      const listening = (c: Spawned) => /listening on (http:\/\/\S+)/.exec(c.err())?.[1];
      for (const c of [first, second])
        await untilOutput(c, () => Boolean(listening(c)), { what: 'the server to listen', timeoutMs: 60_000 });
      const url = listening(second)!;
      const server = runningPostmaster(dataDir);
      expect(server).toBeDefined();
      // an eval joins the same server and leaves; then the process that started the server leaves
      expect((await runCli(['eval', NORMAL], baseEnv(home), { timeoutMs: 120_000 })).code).toBe(0);
      first.kill('SIGTERM');
      expect(await first.exited).toBe('SIGTERM');
      expect(first.err()).toMatch(/leaving the embedded Postgres running for 1 other Loupe process/);
      expect(runningPostmaster(dataDir)?.pid).toBe(server!.pid);

      const health = await fetch(`${url}/health`);
      expect(await health.json()).toEqual({ status: 'ok', database: 'up' });
      const sessions = await fetch(`${url}/api/sessions`, { headers: { authorization: `Bearer ${token}` } });
      expect(sessions.status).toBe(200);
      // the scenario is written for two profiles (corvid, loupe): one session under each
      expect(((await sessions.json()) as { items: unknown[] }).items).toHaveLength(2);

      second.kill('SIGTERM');
      expect(await second.exited).toBe('SIGTERM');
      expect(runningPostmaster(dataDir)).toBeUndefined();
    } finally {
      for (const c of [first, second]) if (c.exitCode === null) c.kill('SIGKILL');
      cleanup(home);
    }
  }, 180_000);

  it('restarts a server killed mid-run: every trial runs once, passes, and nothing recorded is lost', async () => {
    const home = path.join(tmp, 'restart');
    try {
      const run = spawnLoupe(['eval', SCENARIOS, '-c', '8', '--json'], baseEnv(home));
      await untilOutput(run, () => (run.err().match(/✓/g) ?? []).length >= 5, { what: 'a few trials to finish', timeoutMs: 120_000 });
      const before = runningPostmaster(dataDirFor(home, () => {}))!;
      process.kill(before.pid, 'SIGKILL');
      expect(await run.exited).toBe(0);
      expect(run.err()).toMatch(/embedded Postgres \(pid \d+, port \d+\) is gone; starting it again/);
      expect(run.err()).toMatch(/embedded Postgres is back on port \d+/);
      const report = JSON.parse(run.out());
      expect(report.summary).toEqual(expect.objectContaining({ passed: SCENARIO_COUNT, failed: 0, errored: 0, notRun: 0 }));

      await query(home, async (db) => {
        const restarts = await db.query(`SELECT payload FROM events WHERE session_id IS NULL AND type = 'database_restarted'`);
        expect(restarts.rows).toHaveLength(1);
        expect(restarts.rows[0].payload.previousPid).toBe(before.pid);
        const trials = await db.query(
          `SELECT scenario_id, status, count(*) OVER (PARTITION BY scenario_id, config_key) AS n FROM eval_trials WHERE run_id = $1`,
          [report.runId],
        );
        expect(trials.rows).toHaveLength(SCENARIO_COUNT);
        expect(trials.rows.every((t) => t.status === 'passed' && Number(t.n) === 1)).toBe(true);
        // every event of every session is there: a gap-free sequence ending in session_finished,
        // as many as the run counted live
        const sessions = await db.query(
          `
          SELECT s.id, s.status, count(e.*)::int AS n, max(e.seq) AS last_seq,
                 bool_or(e.type = 'session_finished' AND e.seq = (SELECT max(seq) FROM events WHERE session_id = s.id)) AS ends_finished
            FROM sessions s JOIN eval_trials t ON t.session_id = s.id LEFT JOIN events e ON e.session_id = s.id
           WHERE t.run_id = $1 GROUP BY s.id`,
          [report.runId],
        );
        const live = new Map<string, number>(report.trials.map((t: { sessionId: string; events: number }) => [t.sessionId, t.events]));
        for (const s of sessions.rows) {
          expect(s).toEqual(expect.objectContaining({ status: 'finished', n: s.last_seq + 1, ends_finished: true }));
          expect(s.n).toBe(live.get(s.id));
        }
        const [run] = (await db.query(`SELECT status, trial_count, passed FROM eval_runs WHERE id = $1`, [report.runId])).rows;
        expect(run).toEqual({ status: 'finished', trial_count: SCENARIO_COUNT, passed: SCENARIO_COUNT });
      });
    } finally {
      cleanup(home);
    }
  }, 240_000);

  it('stops loudly when the server cannot come back: results so far printed, exit 1, unwritten entries spilled and replayed later', async () => {
    const home = path.join(tmp, 'lost');
    const dataDir = dataDirFor(home, () => {});
    try {
      const run = spawnLoupe(['eval', SCENARIOS, '-c', '2'], baseEnv(home, { LOUPE_PG_RESTART_TIMEOUT_MS: '2000' }));
      await untilOutput(run, () => (run.err().match(/✓/g) ?? []).length >= 3, { what: 'a few trials to finish', timeoutMs: 120_000 });
      const server = runningPostmaster(dataDir)!;
      process.kill(server.pid, 'SIGKILL');
      // a data directory that lost its control file cannot be started again
      fs.renameSync(path.join(dataDir, 'global', 'pg_control'), path.join(tmp, 'pg_control'));
      expect(await run.exited).toBe(1);
      expect(run.err()).toMatch(/could not be started again within 2000 ms/);
      expect(run.out()).toMatch(/STOPPED EARLY: the database failed/);
      const summary = /(\d+) passed, (\d+) failed, (\d+) errors, (\d+) not run/.exec(run.out());
      expect(summary).not.toBeNull();
      expect(Number(summary![4])).toBeGreaterThan(0);
      const spills = fs.readdirSync(path.join(home, 'journal-spill'));
      expect(spills).toHaveLength(1);
      expect(fs.statSync(path.join(home, 'journal-spill', spills[0])).mode & 0o777).toBe(0o600);

      // once the server can run again, the next start writes the spilled entries
      fs.renameSync(path.join(tmp, 'pg_control'), path.join(dataDir, 'global', 'pg_control'));
      const list = await runCli(['sessions', 'list', '--json'], baseEnv(home), { timeoutMs: 120_000 });
      expect(list.code).toBe(0);
      expect(list.stderr).toMatch(/replayed \d+ spilled journal entries/);
      await query(home, async (db) => {
        const [row] = (await db.query(`SELECT status, trial_count, passed FROM eval_runs`)).rows;
        expect(row).toEqual({
          status: 'failed',
          trial_count: Number(summary![1]) + Number(summary![2]) + Number(summary![3]),
          passed: Number(summary![1]),
        });
        const running = await db.query(`SELECT id FROM sessions WHERE status = 'running'`);
        expect(running.rows).toEqual([]);
      });
    } finally {
      cleanup(home);
    }
  }, 240_000);
});
