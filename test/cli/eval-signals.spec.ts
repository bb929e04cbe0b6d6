// Ctrl-C / SIGTERM during `loupe eval`: no trial starts after the signal, the running ones end as
// `interrupted` (never failed, never a Loupe bug), the partial report is printed (valid --json with
// stoppedBy), the exit is 130 / 143, and no MCP server a trial started outlives the run; `eval
// resume` then reruns the interrupted trials and the run passes; a second SIGINT exits at once. And
// after a kill -9, the next start ends what the killed run left behind, from its records under
// LOUPE_HOME: only groups whose leader is still the recorded process (pid and start time).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { CLI_CASES_AT_ONCE, concurrentCases } from '../support/concurrency';
import { finishedLines, killHard, loupeEnv, spawnLoupe, until, type LoupeProcess } from '../support/loupe-process';
import { untilOutput } from '../support/wait';
import { ROOT, runCli } from '../support/run-cli';
import { createTestDatabase } from '../support/test-app';

const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const TRIALS = 3;

/** Processes (not zombies) whose environment carries this marker (and named `comm`, when given): the MCP servers of one test. */
function serversWith(marker: string, comm?: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!fs.readFileSync(`/proc/${name}/environ`, 'utf8').includes(`LOUPE_SIGNAL_TEST=${marker}\0`)) continue;
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (comm && !stat.includes(`(${comm})`)) continue;
      pids.push(Number(name));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

function startTimeOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

function signalGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone
  }
}

function writeSuite(dir: string, marker: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const slowReply = (ms: number) => [`  - content: The task is done, as asked.`, `    fault: { kind: delay_first_byte, ms: ${ms} }`];
  fs.writeFileSync(
    path.join(dir, 'a-http.yaml'),
    [
      'id: signals/http',
      'title: an external streamable-HTTP MCP server, then a slow reply',
      'spec: test',
      'prompt: Echo hi, then answer.',
      'mcp_servers:',
      '  - name: everything',
      '    url: http://127.0.0.1:${PORT}/mcp',
      '    command: node',
      `    args: [${JSON.stringify(EVERYTHING)}, streamableHttp]`,
      `    env: { PORT: "\${PORT}", LOUPE_SIGNAL_TEST: "${marker}" }`,
      'script:',
      '  - tool_calls: [{ name: echo, arguments: { message: hi } }]',
      ...slowReply(4_000),
      'expect:',
      '  - termination: completed',
      '  - event: tool_result',
      '    with: { name: echo, status: ok }',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'b-quick.yaml'),
    [
      'id: signals/quick',
      'title: a quick reply',
      'spec: test',
      'prompt: go',
      'script:',
      '  - content: Done.',
      'expect:',
      '  - termination: completed',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'c-slow.yaml'),
    [
      'id: signals/slow',
      'title: a slow reply',
      'spec: test',
      'prompt: go',
      'script:',
      ...slowReply(4_000),
      'expect:',
      '  - termination: completed',
      '',
    ].join('\n'),
  );
}

interface TrialRow {
  id: string;
  scenario_id: string;
  status: string;
  error: string | null;
  session_id: string | null;
  replaced_by: string | null;
  invariant_violations: unknown[];
}

describe('loupe eval stopped by a signal', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-signals-'));
  // each case has its own database, LOUPE_HOME and marker, and mostly waits on slow replies: side by side
  const concurrently = concurrentCases(CLI_CASES_AT_ONCE);
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  async function setup(name: string) {
    const marker = `${name}-${process.pid}-${Date.now()}`;
    const suite = path.join(tmp, name, 'suite');
    writeSuite(suite, marker);
    const env = loupeEnv({ DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, name, 'home') });
    const db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    return { marker, suite, env, db };
  }

  /** Some trials reported finished, and an MCP server of a running trial up. */
  async function midRun(child: LoupeProcess, marker: string): Promise<void> {
    await until(
      'finished trials and a running MCP server',
      () => child.exitCode !== null || (finishedLines(child.err()).length >= 2 && serversWith(marker).length > 0),
      90_000,
    );
    expect({ exited: child.exitCode, stderr: child.exitCode === null ? '' : child.err().slice(-2_000) }).toEqual({
      exited: null,
      stderr: '',
    });
  }

  async function trialsOf(db: Client, runId: string): Promise<TrialRow[]> {
    return (
      await db.query<TrialRow>(
        `SELECT id, scenario_id, status, error, session_id, replaced_by, invariant_violations FROM eval_trials WHERE run_id = $1`,
        [runId],
      )
    ).rows;
  }

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    concurrently(
      `${signal}: running trials interrupted (not judged), partial report, exit ${code}, no MCP server left; resume finishes the run`,
      async () => {
        const { marker, suite, env, db } = await setup(signal.toLowerCase());
        try {
          const child = spawnLoupe(['eval', suite, '-t', String(TRIALS), '-c', '4', '--json'], env);
          try {
            await midRun(child, marker);
            child.kill(signal);
            expect(await child.exited).toBe(code);
          } finally {
            await killHard(child);
          }
          // the MCP servers were stopped before the process exited
          expect(serversWith(marker)).toEqual([]);
          expect(fs.readdirSync(path.join(env.LOUPE_HOME, 'children'))).toEqual([]);

          const report = JSON.parse(child.out());
          expect(report.stoppedBy).toBe(signal);
          expect(report.interrupted).toBeGreaterThan(0);
          expect(report.summary).toEqual(expect.objectContaining({ failed: 0, errored: 0, unjudged: 0 }));
          expect(report.summary.passed).toBe(report.trials.length);
          expect(report.summary.passed + report.interrupted + report.summary.notRun).toBe(3 * TRIALS);
          // the statistics count only the trials that reached a verdict
          expect(report.statistics.run.trials).toBe(report.trials.length);
          expect(report.trials.every((t: { status: string }) => t.status === 'passed')).toBe(true);

          const rows = await trialsOf(db, report.runId);
          // nothing recorded as failed or a Loupe bug because of the signal
          expect(rows.filter((t) => t.status !== 'passed' && t.status !== 'interrupted')).toEqual([]);
          expect(rows.flatMap((t) => t.invariant_violations)).toEqual([]);
          const interrupted = rows.filter((t) => t.status === 'interrupted');
          expect(interrupted).toHaveLength(report.interrupted);
          expect(interrupted.every((t) => t.error === `interrupted by ${signal}`)).toBe(true);
          // the HTTP trials were running when the signal came (their slow reply outlasts the quick trials)
          expect(interrupted.some((t) => t.scenario_id === 'signals/http')).toBe(true);
          const run = (await db.query(`SELECT status FROM eval_runs WHERE id = $1`, [report.runId])).rows[0];
          expect(run.status).toBe('interrupted');
          // no trial started after the signal: those interrupted are at most the -c 4 running then, the rest never ran
          expect(report.trials.length).toBeGreaterThanOrEqual(2);
          expect(interrupted.length).toBeLessThanOrEqual(4);
          expect(rows).toHaveLength(report.trials.length + interrupted.length);

          const resumed = await runCli(['eval', 'resume', report.runId, '--json'], env, { timeoutMs: 120_000 });
          expect({ code: resumed.code, stderr: resumed.code === 0 ? '' : resumed.stderr.slice(-2_000) }).toEqual({ code: 0, stderr: '' });
          const final = JSON.parse(resumed.stdout);
          expect(final.summary).toEqual(expect.objectContaining({ passed: 3 * TRIALS, failed: 0, errored: 0, notRun: 0 }));
          expect(final.interrupted).toBe(0);
          expect(final.stoppedBy).toBeNull();
          const after = await trialsOf(db, report.runId);
          // each interrupted trial was rerun as a new attempt that replaces it
          for (const t of interrupted) {
            const now = after.find((r) => r.id === t.id)!;
            expect(now.status).toBe('interrupted');
            expect(after.find((r) => r.id === now.replaced_by)?.status).toBe('passed');
          }
          expect(serversWith(marker)).toEqual([]);
        } finally {
          await db.end();
        }
      },
      180_000,
    );
  }

  concurrently(
    'a second SIGINT exits at once, still ending the MCP servers',
    async () => {
      const { marker, suite, env, db } = await setup('twice');
      try {
        const child = spawnLoupe(['eval', suite, '-t', String(TRIALS), '-c', '4', '--json'], env);
        try {
          await midRun(child, marker);
          child.kill('SIGINT');
          await untilOutput(child, () => child.exitCode !== null || /SIGINT: no new trials/.test(child.err()), {
            what: 'the first signal taken',
            timeoutMs: 60_000,
          });
          child.kill('SIGINT');
          expect(await child.exited).toBe(130);
        } finally {
          await killHard(child);
        }
        expect(child.err()).toMatch(/SIGINT again: exiting now/);
        expect(serversWith(marker)).toEqual([]);
      } finally {
        await db.end();
      }
    },
    180_000,
  );

  concurrently(
    'kill -9: what the run recorded of its MCP servers is swept by the next start',
    async () => {
      const { marker, suite, env, db } = await setup('sigkill');
      try {
        // the three HTTP trials at once: killed once their servers are all up and recorded, none being
        // spawned (a kill inside spawn() itself, between the exec and the record, would leave a process
        // nothing recorded: under load a server shows in /proc a moment before its record is written)
        const child = spawnLoupe(['eval', path.join(suite, 'a-http.yaml'), '-t', String(TRIALS), '-c', String(TRIALS), '--json'], env);
        const recordedServers = () => {
          try {
            const record = fs.readFileSync(path.join(env.LOUPE_HOME, 'children', `${child.pid}.json`), 'utf8');
            return (JSON.parse(record) as { children: Array<{ command: string }> }).children.filter((c) => c.command.includes(EVERYTHING))
              .length;
          } catch {
            return 0; // not written yet
          }
        };
        try {
          await until(
            'the MCP servers running and recorded',
            () => child.exitCode !== null || (serversWith(marker, 'node').length === TRIALS && recordedServers() === TRIALS),
            90_000,
          );
          expect({ exited: child.exitCode, stderr: child.exitCode === null ? '' : child.err().slice(-2_000) }).toEqual({
            exited: null,
            stderr: '',
          });
          await killHard(child);
        } finally {
          await killHard(child);
        }
        // the killed run's record names its servers. Where bubblewrap wraps them (--die-with-parent) they
        // mostly die with it; where it cannot, they run on until the sweep (its own test follows)
        const records = fs.readdirSync(path.join(env.LOUPE_HOME, 'children'));
        expect(records).toEqual([`${child.pid}.json`]);
        const recorded = JSON.parse(fs.readFileSync(path.join(env.LOUPE_HOME, 'children', records[0]), 'utf8')) as {
          children: Array<{ pid: number; group: boolean; command: string }>;
        };
        expect(recorded.children.filter((c) => c.group && c.command.includes(EVERYTHING))).toHaveLength(TRIALS);
        const runId = /^run ([0-9a-f-]{36}) /m.exec(child.err())?.[1] ?? (await db.query(`SELECT id FROM eval_runs`)).rows[0].id;

        const resumed = await runCli(['eval', 'resume', runId, '--json'], env, { timeoutMs: 120_000 });
        expect({ code: resumed.code, stderr: resumed.code === 0 ? '' : resumed.stderr.slice(-2_000) }).toEqual({ code: 0, stderr: '' });
        expect(serversWith(marker)).toEqual([]);
        expect(fs.readdirSync(path.join(env.LOUPE_HOME, 'children'))).toEqual([]);
      } finally {
        await db.end();
      }
    },
    180_000,
  );

  concurrently(
    'the start-up sweep ends the process groups a dead Loupe recorded, and never a pid reused since',
    async () => {
      const { marker, suite, env, db } = await setup('sweep');
      const stranger = `${marker}-stranger`;
      const idle = 'setInterval(() => {}, 1e6)';
      // a server with a process of its own, in its group: both must go
      const server = spawn(
        process.execPath,
        ['-e', `require('child_process').spawn(process.execPath, ['-e', '${idle}'], { stdio: 'ignore' }); ${idle}`],
        {
          detached: true,
          stdio: 'ignore',
          env: { ...process.env, LOUPE_SIGNAL_TEST: marker },
        },
      );
      // a process under a pid the record names with another start time: a reused pid, not Loupe's
      const other = spawn(process.execPath, ['-e', idle], {
        detached: true,
        stdio: 'ignore',
        env: { ...process.env, LOUPE_SIGNAL_TEST: stranger },
      });
      const gone = spawn(process.execPath, ['-e', '']);
      await new Promise((r) => gone.once('exit', r));
      try {
        await until('the server and its child', () => serversWith(marker).length === 2);
        const dir = path.join(env.LOUPE_HOME, 'children');
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(
          path.join(dir, `${gone.pid}.json`),
          JSON.stringify({
            ownerPid: gone.pid,
            ownerStartTime: 1,
            children: [
              { pid: server.pid, startTime: startTimeOf(server.pid!), group: true, command: 'a server' },
              { pid: other.pid, startTime: startTimeOf(other.pid!) + 1, group: true, command: 'a stranger' },
            ],
          }),
        );
        const run = await runCli(['eval', path.join(suite, 'b-quick.yaml'), '--json'], env, { timeoutMs: 120_000 });
        expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr.slice(-2_000) }).toEqual({ code: 0, stderr: '' });
        expect(run.stderr).toContain(`ended process group ${server.pid} (a server) left by Loupe process ${gone.pid}`);
        expect(run.stderr).not.toContain('a stranger');
        await until('the server group gone', () => serversWith(marker).length === 0, 5_000);
        expect(serversWith(stranger)).toEqual([other.pid]);
        expect(fs.readdirSync(dir)).toEqual([]);
      } finally {
        for (const p of [server, other]) if (p.pid) signalGroup(p.pid);
        await db.end();
      }
    },
    180_000,
  );
});
