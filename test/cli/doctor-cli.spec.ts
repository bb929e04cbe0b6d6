// `loupe doctor` as a user runs it (the built CLI, a child process) against a stand-in at
// OLLAMA_HOST over real HTTP: the table and the JSON, the probe's request and latency split,
// num_ctx against each model's context length, and exit codes (0 fine, 1 a failed finding or an
// unreachable host, 2 bad flags). Needs no database.
import { runCli } from '../support/run-cli';
import { startStandin, stopAll } from '../standin/standin-test-kit';
import { closedPort } from '../provider/provider-test-kit';

interface Finding {
  check: string;
  level: 'ok' | 'warn' | 'fail';
  message: string;
}

interface Report {
  host: string;
  standin: boolean;
  reachable: boolean;
  version: string | null;
  slotLimit: { maxWeight: number; source: string };
  numCtx: Array<{ source: string; value: number }>;
  findings: Finding[];
  level: string;
  models: Array<{
    model: string;
    parameterSize: string;
    quantization: string;
    sizeBytes: number;
    capabilities: string[];
    contextLength: number;
    toolMode: { mode: string; reason: string };
    slotWeight: number;
    probe: null | { ok: true; latency: Record<string, number | null>; evalCount: number } | { ok: false; error: string };
    findings: Finding[];
  }>;
}

const PROBE_SCRIPT = { turns: { '*': [{ content: 'ok' }] }, loop: true };
// no OLLAMA_NUM_CTX / OLLAMA_MAX_PARALLEL from the developer's shell
const BASE_ENV = { OLLAMA_NUM_CTX: undefined, OLLAMA_MAX_PARALLEL: undefined, LOUPE_LOG_LEVEL: 'error' };

const parse = (stdout: string) => JSON.parse(stdout) as Report;

describe('loupe doctor', () => {
  afterEach(stopAll);

  it('reports version and each model named, probes it with one streamed turn, and exits 0', async () => {
    const { server, url } = await startStandin({ script: PROBE_SCRIPT });
    const r = await runCli(['doctor', '--json', '-m', 'qwen3:8b,llama3.1:8b'], { ...BASE_ENV, OLLAMA_HOST: url });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = parse(r.stdout);
    expect(report).toEqual(
      expect.objectContaining({ host: url, standin: false, reachable: true, level: 'ok', numCtx: [{ source: 'default', value: 8192 }] }),
    );
    expect(report.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(report.slotLimit).toEqual({ maxWeight: 1, source: expect.any(String) });
    expect(report.models.map((m) => m.model)).toEqual(['llama3.1:8b', 'qwen3:8b']);
    const qwen = report.models.find((m) => m.model === 'qwen3:8b')!;
    expect(qwen).toEqual(
      expect.objectContaining({
        parameterSize: '8.2B',
        quantization: 'Q4_K_M',
        sizeBytes: expect.any(Number),
        capabilities: expect.arrayContaining(['tools', 'thinking']),
        contextLength: 40960,
        toolMode: { mode: 'text', reason: 'text_family' },
        slotWeight: expect.any(Number),
      }),
    );
    expect(qwen.probe).toEqual(
      expect.objectContaining({
        ok: true,
        latency: expect.objectContaining({ ttfbMs: expect.any(Number), wallMs: expect.any(Number), totalMs: expect.any(Number) }),
      }),
    );
    expect(qwen.findings.map((f) => f.check)).toEqual(['capabilities', 'tool_mode', 'num_ctx', 'reloads', 'slots', 'probe']);
    const chats = server.requests.filter((q) => q.path === '/api/chat');
    expect(chats.map((q) => q.model).sort()).toEqual(['llama3.1:8b', 'qwen3:8b']);
    // the run's num_ctx, and think:false for a thinking family (as a session sends them)
    expect(chats.find((q) => q.model === 'qwen3:8b')!.body).toEqual(
      expect.objectContaining({ stream: true, think: false, options: expect.objectContaining({ num_ctx: 8192 }) }),
    );
  });

  it('prints a readable table of every model, and sends no chat with --no-probe', async () => {
    const { server, url } = await startStandin({ script: PROBE_SCRIPT });
    const r = await runCli(['doctor', '--no-probe'], { ...BASE_ENV, OLLAMA_HOST: url });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`host     ${url}\n`);
    expect(r.stdout).toMatch(/^version {2}\d+\.\d+\.\d+/m);
    expect(r.stdout).toMatch(/MODEL +PARAMS +QUANT +SIZE +CONTEXT +TOOLS +WEIGHT +CAPABILITIES +PROBE/);
    expect(r.stdout).toMatch(/^ok +qwen3:8b +8\.2B +Q4_K_M +5\.2 GB +40960 +text +\d+\/1 +completion,tools,thinking +skipped$/m);
    // gemma has no tools capability: tools go as text, a warning, not a failure
    expect(r.stdout).toMatch(/WARN +gemma:2b: tool_mode: text: no tools capability/);
    expect(r.stdout).toContain('verdict: warn');
    expect(server.requests.filter((q) => q.path === '/api/chat')).toEqual([]);
  });

  it('fails (exit 1) a --num-ctx over a model context length, and a probe the host answers with an error', async () => {
    const { url } = await startStandin({ script: PROBE_SCRIPT });
    const over = await runCli(['doctor', '--json', '--no-probe', '-m', 'qwen3:8b', '--num-ctx', '65536'], {
      ...BASE_ENV,
      OLLAMA_HOST: url,
    });
    expect(over.code).toBe(1);
    const report = parse(over.stdout);
    expect(report.numCtx).toEqual([
      { source: 'default', value: 8192 },
      { source: '--num-ctx', value: 65536 },
    ]);
    expect(report.models[0].findings.filter((f) => f.check === 'num_ctx').map((f) => f.level)).toEqual(['ok', 'fail']);
    expect(report.level).toBe('fail');

    const { url: scriptless } = await startStandin();
    const failed = await runCli(['doctor', '-m', 'mistral:7b'], { ...BASE_ENV, OLLAMA_HOST: scriptless });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/FAIL +mistral:7b: probe: one-turn chat failed: .*script exhausted/);
    expect(failed.stdout).toContain('verdict: fail');
  });

  it('fails (exit 1) a model asked for that the host does not list', async () => {
    const { url } = await startStandin({ script: PROBE_SCRIPT });
    const r = await runCli(['doctor', '--json', '-m', 'nope:1b'], { ...BASE_ENV, OLLAMA_HOST: url });
    expect(r.code).toBe(1);
    expect(parse(r.stdout).findings).toContainEqual({
      check: 'models',
      level: 'fail',
      message: 'nope:1b is not installed on the host: pull it first',
    });
  });

  it('says an unreachable host plainly and exits 1, without a stack trace', async () => {
    const host = `http://127.0.0.1:${await closedPort()}`;
    const r = await runCli(['doctor'], { ...BASE_ENV, OLLAMA_HOST: host });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^loupe: Ollama at ${host} is unreachable: \\S`));
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const json = await runCli(['doctor', '--json'], { ...BASE_ENV, OLLAMA_HOST: host });
    expect(json.code).toBe(1);
    expect(parse(json.stdout)).toEqual(expect.objectContaining({ reachable: false, level: 'fail', models: [] }));
  });

  it('checks a stand-in started for the purpose when OLLAMA_HOST is unset, and says so', async () => {
    const r = await runCli(['doctor', '--json', '-m', 'llama3.1:8b'], { ...BASE_ENV, OLLAMA_HOST: undefined });
    expect(r.code).toBe(0);
    const report = parse(r.stdout);
    expect(report.standin).toBe(true);
    expect(report.findings[0].message).toMatch(/^stand-in at http:\/\/127\.0\.0\.1:\d+ \(OLLAMA_HOST is unset\)/);
    expect(report.models[0].probe).toEqual(expect.objectContaining({ ok: true }));
  });

  it('refuses a bad --num-ctx as bad input (exit 2)', async () => {
    const r = await runCli(['doctor', '--num-ctx', 'lots'], { ...BASE_ENV, OLLAMA_HOST: 'http://127.0.0.1:1' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--num-ctx: expected a positive integer');
  });
});
