import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startStandin } from '../provider/provider-test-kit';
import { createTestDatabase } from '../support/test-app';
import { ROOT, runCli } from '../support/run-cli';

const NORMAL = path.join(ROOT, 'scenarios', 'direct-process', 'normal-tool-loop-completion.yaml');

describe('loupe eval / sessions (the built CLI)', () => {
  let env: Record<string, string | undefined>;
  let tmp: string;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-'));
    env = { DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, 'home'), OLLAMA_HOST: undefined };
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('passes a scenario, prints JSON with the session, and reads the session back with trace ids', async () => {
    const run = await runCli(['eval', NORMAL, '--json'], env);
    expect(run.stderr).not.toMatch(/ERROR/);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    // written for two profiles (corvid, loupe): one trial under each
    expect(report.summary).toEqual({ passed: 2, failed: 0, unjudged: 0, errored: 0, notRun: 0, trials: 2 });
    const [trial] = report.trials;
    expect(trial).toEqual(
      expect.objectContaining({
        scenarioId: 'direct-process/normal-tool-loop-completion',
        status: 'passed',
        passed: true,
        iterations: 4,
        failedExpectations: [],
      }),
    );
    expect(trial.events).toBeGreaterThan(10);

    const show = await runCli(['sessions', 'show', trial.sessionId, '--json'], env);
    expect(show.code).toBe(0);
    const detail = JSON.parse(show.stdout);
    expect(detail.session.id).toBe(trial.sessionId);
    expect(detail.session.traceId).toBe(trial.traceId);
    expect(detail.iterations).toHaveLength(4);
    expect(detail.events.length).toBe(trial.events);
    for (const row of [...detail.iterations, ...detail.events]) {
      expect(row.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(row.spanId).toMatch(/^[0-9a-f]{16}$/);
    }

    const list = await runCli(['sessions', 'list', '--json'], env);
    expect(JSON.parse(list.stdout).map((s: { id: string }) => s.id)).toContain(trial.sessionId);
  });

  it('exits 1 and names the failed expectation when an expectation is false', async () => {
    const file = path.join(tmp, 'false-expectation.yaml');
    fs.writeFileSync(
      file,
      fs
        .readFileSync(NORMAL, 'utf8')
        .replace('final_answer_contains: wrote its first line to summary.txt', 'final_answer_contains: something the model never said'),
    );
    const run = await runCli(['eval', file], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAIL/);
    expect(run.stdout).toContain('✗ final answer contains "something the model never said"');
  });

  it('exits 2 naming file and line for a YAML error, and runs nothing', async () => {
    const file = path.join(tmp, 'broken.yaml');
    fs.writeFileSync(file, 'id: broken\ntitle: x\nspec: y\nprompt: [unclosed\nscript: []\nexpect: []\n');
    const run = await runCli(['eval', file, path.join(ROOT, 'scenarios')], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/broken\.yaml:\d+:\d+: (\S+: )?YAML syntax error/);
    expect(run.stderr).toContain('nothing was run');
    expect(run.stdout).toBe('');
  });

  it('exits 2 naming the field path and line for a schema error', async () => {
    const file = path.join(tmp, 'schema.yaml');
    const text = fs.readFileSync(NORMAL, 'utf8').replace('name: read_file', 'name: 7');
    fs.writeFileSync(file, text);
    const line = text.split('\n').findIndex((l) => l.includes('name: 7')) + 1;
    const run = await runCli(['eval', file], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`schema\\.yaml:${line}:\\d+: script\\[1\\]\\.tool_calls\\[0\\]\\.name: expected string`));
  });

  it("loads a live run's first model while the run starts up, before the run is recorded", async () => {
    const model = 'warm:1b';
    const { server, url } = await startStandin({
      catalog: [{ name: model, family: 'llama', parameterSize: '1.0B', capabilities: ['completion', 'tools'], loadMs: 200 }],
      script: { turns: { '*': [{ content: 'The task is done.' }] }, loop: true },
    });
    try {
      const file = path.join(tmp, 'live-warm.yaml');
      fs.writeFileSync(
        file,
        `id: bench/live-warm\nprompt: Say done.\nmodel: ${model}\nexpect:\n  - termination: completed\nsuccess:\n  - final_answer: { contains: done }\n`,
      );
      const run = await runCli(['eval', file, '--json'], { ...env, OLLAMA_HOST: url });
      expect({ code: run.code, stderr: run.code ? run.stderr : '' }).toEqual({ code: 0, stderr: '' });
      const report = JSON.parse(run.stdout);
      expect(report.summary.passed).toBe(1);
      const loads = server.requests.filter((r) => r.path === '/api/chat' && (r.body as { messages: unknown[] }).messages.length === 0);
      // sent while the application started (its database connection, migrations), not after the run began
      expect(loads.length).toBeGreaterThanOrEqual(1);
      expect(Date.parse(report.startedAt) - loads[0].receivedAt).toBeGreaterThan(20);
      // and no trial's request went out before a load had ended
      const asks = server.requests.filter((r) => r.path === '/api/chat' && (r.body as { messages: unknown[] }).messages.length > 0);
      expect(asks.map((r) => r.receivedAt >= loads[0].receivedAt + 200)).toEqual([true]);
    } finally {
      await server.stop();
    }
  });

  it('exits 2 for a bad flag or environment variable', async () => {
    expect((await runCli(['eval', '--trials', 'zero'], env)).code).toBe(2);
    const bad = await runCli(['eval', NORMAL], { ...env, OLLAMA_NUM_CTX: 'big' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/OLLAMA_NUM_CTX="big"/);
  });
});
