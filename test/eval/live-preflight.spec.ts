// A live eval's preflight as a user meets it (the built CLI, OLLAMA_HOST at a stand-in): bad input
// (an unreachable host, a model the host does not have, a cloud model without sign-in, a num_ctx
// over the model's trained length) is one clear message naming the model, scenario or field, exit 2,
// before any trial starts (no chat reaches the host, no run is recorded). A model without the tools
// capability is said to run in text tool mode, and is not refused.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../support/run-cli';
import { startStandin, stopAll } from '../standin/standin-test-kit';
import { createTestDatabase } from '../support/test-app';
import { closedPort, PREFLIGHT_ENV, writePreflightScenarios, type PreflightScenarios } from '../support/preflight-kit';

describe("a live eval's preflight (built CLI)", () => {
  let scenarios: PreflightScenarios;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    scenarios = writePreflightScenarios('pf');
    env = { ...PREFLIGHT_ENV, DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(scenarios.tmp, 'home') };
  });
  afterEach(stopAll);
  afterAll(() => fs.rmSync(scenarios.tmp, { recursive: true, force: true }));

  const plain = () => scenarios.plain;

  it('stops on an unreachable host before anything runs (exit 2)', async () => {
    const host = `http://127.0.0.1:${await closedPort()}`;
    const r = await runCli(['eval', plain(), '-m', 'llama3.1:8b'], { ...env, OLLAMA_HOST: host });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('OLLAMA_HOST is not ready for this run, nothing was run:');
    expect(r.stderr).toMatch(new RegExp(`Ollama at ${host} is unreachable: .+ \\(OLLAMA_HOST\\)`));
  });

  it('names a model the host does not have, and says a model without tools runs in text tool mode', async () => {
    const { server, url } = await startStandin();
    const r = await runCli(['eval', plain(), '-m', 'gemma:2b,nothere:1b'], { ...env, OLLAMA_HOST: url });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`nothere:1b (scenario pf/plain) is not installed on ${url}: pull it first (ollama pull nothere:1b)`);
    expect(r.stderr).toMatch(/loupe: gemma:2b has no tools capability: Loupe runs it in text tool mode .* for scenario pf\/plain/);
    expect(server.requests.filter((q) => q.path === '/api/chat')).toEqual([]);
  });

  it('names the scenario and field whose num_ctx is over the model context length', async () => {
    const { server, url } = await startStandin();
    const r = await runCli(['eval', scenarios.wide, '-m', 'qwen3:8b'], { ...env, OLLAMA_HOST: url });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /qwen3:8b: scenario pf\/wide \(.*wide\.yaml\) config: num_ctx 65536 exceeds qwen3:8b's trained context length 40960/,
    );
    expect(server.requests.filter((q) => q.path === '/api/chat')).toEqual([]);
  });

  it('stops on a cloud model when the host is not signed in to ollama.com', async () => {
    const { url } = await startStandin({ cloud: 'signed_out', script: { turns: { '*': [{ content: 'ok' }] }, loop: true } });
    const r = await runCli(['eval', plain(), '-m', 'gpt-oss:120b-cloud'], { ...env, OLLAMA_HOST: url, OLLAMA_LOCAL_HOST: url });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${url} is not signed in to ollama.com, so the cloud model gpt-oss:120b-cloud cannot run: run \`ollama signin\``,
    );
  });
});
