// The CLI as a researcher first meets it, through the built command on the embedded Postgres (no
// DATABASE_URL): a line the moment Postgres starts initialising and how long it took, progress lines
// with a count and an ETA that never reads `1m60s`, the pathologies as a table, one error for an
// unknown model with a close match, what --record kept, `loupe db url`, and `loupe serve`'s URLs.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { dataDirFor, startEmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { ROOT, runCli, waitForListening } from '../support/run-cli';

const LOOP_CONTROL = path.join(ROOT, 'scenarios', 'loop-control');

function env(home: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { DATABASE_URL: undefined, OLLAMA_HOST: undefined, LOUPE_LOG_LEVEL: undefined, LOUPE_HOME: home, ...extra };
}

describe('the CLI on the embedded Postgres', () => {
  let home: string;

  beforeAll(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-workbench-'));
  });
  afterAll(() => {
    const dataDir = dataDirFor(home, () => {});
    if (dataDir !== path.join(home, 'pg')) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('says at once that Postgres is initialising, then how long it took; shows progress with an ETA, pathologies as a table, and what --record kept', async () => {
    const r = await runCli(['eval', LOOP_CONTROL, '-t', '2', '-c', '2', '--record'], env(home), { timeoutMs: 240_000 });
    // 1: some trial failed — still a whole, recorded run; anything else is not
    expect({ code: r.code === 0 || r.code === 1, stderr: r.code === 0 || r.code === 1 ? '' : r.stderr }).toEqual({
      code: true,
      stderr: '',
    });
    const err = r.stderr.split('\n');

    const init = err.findIndex((l) => /^loupe: initialising the embedded Postgres in .+ \(first run on this LOUPE_HOME only\)…$/.test(l));
    const took = err.findIndex((l) => /^loupe: embedded Postgres initialised in \d+\.\d s \(`loupe db url` connects to it\)$/.test(l));
    const firstTrial = err.findIndex((l) => /^[✓✗?!] /.test(l));
    expect([init >= 0, took > init, firstTrial > took]).toEqual([true, true, true]);

    // one line per trial: the count, and an ETA while trials remain, in whole units
    const progress = err.filter((l) => /^[✓✗?!] /.test(l));
    const total = progress.length;
    expect(total).toBeGreaterThan(10);
    progress.forEach((l, i) => {
      if (i < total - 1) expect(l).toMatch(new RegExp(`\\(${i + 1}/${total}, ETA (\\d+s|\\d+m[0-5]\\ds|\\d+m|\\d+h[0-5]\\dm)\\)$`));
      else expect(l).toMatch(new RegExp(`\\(${total}/${total}\\)$`));
    });
    expect(r.stderr).not.toMatch(/\dm60s|ETA NaN|ETA –/);

    // the pathologies: a header and one short row per pathology, not one long line
    const out = r.stdout.split('\n');
    const head = out.indexOf('Pathologies (judged trials with at least one):');
    expect(head).toBeGreaterThan(0);
    expect(out[head + 1]).toMatch(/^PATHOLOGY\s+TRIALS\s+SHARE\s+95% CI$/);
    const rows = out.slice(head + 2, out.indexOf('', head));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) expect(row).toMatch(/^[a-z_.A-Z]+\s+\d+\/\d+\s+\d+(\.\d)?%\s+\[[\d.]+%–[\d.]+%\]$/);
    expect(rows.map((x) => x.split(/\s+/)[0])).toEqual(expect.arrayContaining(['same_tool_break', 'max_iterations', 'cycle_break']));

    // --record: what it kept, and where
    const runId = /— run ([0-9a-f-]{36})/.exec(r.stdout)![1];
    const kept = new RegExp(
      `^recorded (\\d+) model exchanges \\((\\d+) chats\\) from (\\d+) trials, [\\d.]+ (kB|MB), in the embedded Postgres \\(${home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\), table eval_exchanges \\(run ${runId}\\)$`,
    ).exec(err.find((l) => l.startsWith('recorded ')) ?? '');
    expect(kept).not.toBeNull();
    expect(r.stderr).toContain(`  replay: loupe eval --replay ${runId}   export: loupe eval export ${runId} -o run.loupe.jsonl.gz`);

    // `loupe db url` reaches the same database while a Loupe process holds the server, and the numbers hold
    const pg = await startEmbeddedPostgres(home, () => {});
    try {
      const url = await runCli(['db', 'url'], env(home));
      expect(url.code).toBe(0);
      expect(url.stderr).toBe('');
      expect(url.stdout.trim()).toMatch(/^postgres(ql)?:\/\/loupe_app:[^@]+@127\.0\.0\.1:\d+\/\w+$/);
      const db = new Client({ connectionString: url.stdout.trim() });
      await db.connect();
      try {
        const { rows: counted } = await db.query(
          `SELECT count(*)::int AS exchanges, count(*) FILTER (WHERE kind = 'chat')::int AS chats, count(DISTINCT trial_id)::int AS trials FROM eval_exchanges WHERE run_id = $1`,
          [runId],
        );
        expect(counted[0]).toEqual({ exchanges: Number(kept![1]), chats: Number(kept![2]), trials: Number(kept![3]) });
        expect(counted[0].exchanges).toBeGreaterThan(0);
      } finally {
        await db.end();
      }
    } finally {
      await pg.stop();
    }

    // a warm home: no initialisation to announce
    const again = await runCli(['eval', path.join(LOOP_CONTROL, 'cycle-break.yaml')], env(home), { timeoutMs: 120_000 });
    expect(again.code).toBe(0);
    expect(again.stderr).not.toMatch(/initialis/);
  }, 300_000);

  it('answers an unknown model once, with the closest served name, before anything runs', async () => {
    const r = await runCli(['eval', LOOP_CONTROL, '-m', 'qwen3:8', 'unknown'], env(home));
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^loupe: -m qwen3:8: the Ollama stand-in serves no model "qwen3:8"; did you mean "qwen3:8b"\? \(it serves: .*qwen3:8b.*\)$/,
    );
    expect(lines[1]).toMatch(/^-m unknown: the Ollama stand-in serves no model "unknown" \(it serves: /);
    expect(lines[2]).toBe(
      "nothing was run: pick a served model, add it under a scenario's catalog:, or set OLLAMA_HOST to run real models",
    );
    expect(r.stderr).not.toMatch(/:0:0/);
    expect(r.stdout).toBe('');
  });

  it('`loupe serve` prints the viewer and explorer URLs, with the token in the fragment on loopback', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'loupe.js'), 'serve'], {
      env: Object.fromEntries(
        Object.entries({
          ...process.env,
          ...env(home, { LOUPE_PORT: '0', LOUPE_ADMIN_TOKEN: 'serve-token', LOUPE_LOG_LEVEL: 'log' }),
        }).filter((e): e is [string, string] => e[1] !== undefined),
      ),
    });
    let out = '';
    // the banner is printed once the server listens: resolved by the output event that completes it
    const banner = new Promise<void>((resolve) =>
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('API explorer') && out.endsWith('\n')) resolve();
      }),
    );
    const exited = new Promise((r) => child.once('exit', r));
    try {
      const base = await waitForListening(child);
      const port = new URL(base).port;
      await banner;
      expect(out.split('\n').filter(Boolean)).toEqual([
        `Viewer:       http://127.0.0.1:${port}/#token=serve-token`,
        `API explorer: http://127.0.0.1:${port}/api/docs#token=serve-token`,
      ]);
      expect((await fetch(`http://127.0.0.1:${port}/api/docs`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);
});
