// kill -9 of a Loupe process mid-session: the session is not left "running" forever; the next
// start on this host closes it as interrupted, with a session_finished event.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase } from '../support/test-app';
import { ROOT, runCli } from '../support/run-cli';
import { waitUntil } from '../support/wait';

describe('a session whose Loupe process was killed', () => {
  it('is closed as interrupted by the next start', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-kill9-'));
    const scenario = path.join(tmp, 'slow.yaml');
    fs.writeFileSync(
      scenario,
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
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'OLLAMA_HOST') env[k] = v;
    Object.assign(env, { DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, 'home') });
    const db = new Client({ connectionString: env.DATABASE_URL });
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'loupe.js'), 'eval', scenario], { env });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    try {
      await db.connect();
      // the session and its first iteration reach Postgres through the child's journal: nothing tells
      // this process, so it looks (the tables exist once the child has migrated the database)
      const running = await waitUntil(
        async () => {
          if (child.exitCode !== null) throw new Error(`loupe eval exited (${child.exitCode}) before its session ran: ${err}`);
          const { rows } = await db
            .query<{ id: string }>(
              `SELECT s.id FROM sessions s WHERE s.status = 'running' AND EXISTS (SELECT 1 FROM iterations i WHERE i.session_id = s.id)`,
            )
            .catch(() => ({ rows: [] as Array<{ id: string }> }));
          return rows.length > 0 && rows;
        },
        { what: 'a running session with an iteration in Postgres', timeoutMs: 30_000, context: () => `stderr: ${err}` },
      );
      expect(running).toHaveLength(1);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;

      const show = await runCli(['sessions', 'show', running[0].id, '--json'], env);
      expect(show.code).toBe(0);
      const detail = JSON.parse(show.stdout);
      expect(detail.session).toEqual(expect.objectContaining({ status: 'finished', terminationReason: 'interrupted', exitCode: 1 }));
      expect(detail.session.error).toMatch(/exited without finishing it/);
      expect(detail.iterations.every((i: { status: string }) => i.status !== 'running')).toBe(true);
      const last = detail.events.at(-1);
      expect(last).toEqual(
        expect.objectContaining({ type: 'session_finished', payload: expect.objectContaining({ reason: 'interrupted' }) }),
      );
      expect(detail.events.map((e: { seq: number }) => e.seq)).toEqual(detail.events.map((_: unknown, i: number) => i));
      const [run] = (await db.query(`SELECT status, errored FROM eval_runs`)).rows;
      expect(run).toEqual({ status: 'interrupted', errored: 1 });
      const [trial] = (await db.query(`SELECT status, error FROM eval_trials`)).rows;
      // interrupted, not a verdict: `loupe eval resume` reruns it
      expect(trial).toEqual({ status: 'interrupted', error: expect.stringMatching(/interrupted/) });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await db.end().catch(() => undefined);
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});
