// `loupe eval --queue` checks a live run as `loupe eval` does before anything is enqueued: with
// OLLAMA_HOST set, an unreachable host, a model the host does not have, a cloud model without
// sign-in or a num_ctx over the model's trained length is one clear message and exit 2, and no run
// or trial job is written (a worker would otherwise take trials that can only fail). Built CLI.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { startStandin, stopAll } from '../standin/standin-test-kit';
import { runCli } from '../support/run-cli';
import { createTestDatabase } from '../support/test-app';
import { closedPort, PREFLIGHT_ENV, writePreflightScenarios, type PreflightScenarios } from '../support/preflight-kit';

describe('loupe eval --queue: the live preflight before anything is enqueued (built CLI)', () => {
  let scenarios: PreflightScenarios;
  let env: Record<string, string | undefined>;
  let db: Client;
  beforeAll(async () => {
    scenarios = writePreflightScenarios('qpf');
    const url = await createTestDatabase();
    env = { ...PREFLIGHT_ENV, DATABASE_URL: url, LOUPE_HOME: path.join(scenarios.tmp, 'home') };
    db = new Client({ connectionString: url });
    await db.connect();
  });
  afterEach(stopAll);
  afterAll(async () => {
    await db?.end();
    fs.rmSync(scenarios.tmp, { recursive: true, force: true });
  });

  const plain = () => scenarios.plain;
  /** what is queued: run rows and pg-boss jobs */
  const queued = async () => ({
    runs: Number((await db.query('SELECT count(*) AS n FROM eval_runs')).rows[0].n),
    jobs: Number((await db.query('SELECT count(*) AS n FROM pgboss.job')).rows[0].n),
  });

  it('enqueues a run the host is ready for, and nothing when it is not (exit 2)', async () => {
    // a ready host first: the run is queued (and the tables the later checks read exist)
    const { server, url } = await startStandin();
    const ok = await runCli(['eval', plain(), '-m', 'qwen3:8b', '-t', '2', '--queue', '--json'], { ...env, OLLAMA_HOST: url });
    expect([ok.code, ok.stderr]).toEqual([0, expect.stringMatching(/^run [0-9a-f-]{36} queued: 2 trials/m)]);
    expect(JSON.parse(ok.stdout)).toEqual({ runId: expect.any(String), queued: true });
    const before = await queued();
    expect(before).toEqual({ runs: 1, jobs: 2 });

    const refused = async (args: string[], extraEnv: Record<string, string>) => {
      const r = await runCli(['eval', ...args, '--queue'], { ...env, ...extraEnv });
      expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('OLLAMA_HOST is not ready for this run, nothing was run:')]);
      expect(r.stderr).not.toMatch(/queued:/);
      expect(await queued()).toEqual(before);
      return r.stderr;
    };

    const down = `http://127.0.0.1:${await closedPort()}`;
    expect(await refused([plain(), '-m', 'qwen3:8b'], { OLLAMA_HOST: down })).toMatch(
      new RegExp(`Ollama at ${down} is unreachable: .+ \\(OLLAMA_HOST\\)`),
    );
    expect(await refused([plain(), '-m', 'nothere:1b'], { OLLAMA_HOST: url })).toContain(
      `nothere:1b (scenario qpf/plain) is not installed on ${url}: pull it first (ollama pull nothere:1b)`,
    );
    expect(await refused([scenarios.wide, '-m', 'qwen3:8b'], { OLLAMA_HOST: url })).toMatch(
      /qwen3:8b: scenario qpf\/wide \(.*wide\.yaml\) config: num_ctx 65536 exceeds qwen3:8b's trained context length 40960/,
    );
    // the sign-in check is a chat to the local host: the stand-in answers it (signed out)
    const cloud = await startStandin({ cloud: 'signed_out', script: { turns: { '*': [{ content: 'ok' }] }, loop: true } });
    expect(await refused([plain(), '-m', 'gpt-oss:120b-cloud'], { OLLAMA_HOST: cloud.url, OLLAMA_LOCAL_HOST: cloud.url })).toContain(
      `${cloud.url} is not signed in to ollama.com, so the cloud model gpt-oss:120b-cloud cannot run: run \`ollama signin\``,
    );
    // the preflight reads the host's models; no trial reached it
    expect(server.requests.filter((q) => q.path === '/api/chat')).toEqual([]);
  }, 120_000);
});
