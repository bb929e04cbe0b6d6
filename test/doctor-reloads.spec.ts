// `loupe doctor` on whether Loupe's settings will make the host reload a model: a model /api/ps shows
// loaded at another context, several num_ctx values, keep_alive shorter than the approval timeout;
// and a cloud model on a host that is not signed in. The built CLI against a stand-in.
import { runCli } from './support/run-cli';
import { startStandin, stopAll } from './standin/standin-test-kit';

interface Finding {
  check: string;
  level: 'ok' | 'warn' | 'fail';
  message: string;
}
interface Report {
  findings: Finding[];
  level: string;
  models: Array<{ model: string; loadedContext?: number | null; findings: Finding[] }>;
}

const BASE_ENV = { OLLAMA_NUM_CTX: undefined, OLLAMA_MAX_PARALLEL: undefined, OLLAMA_KEEP_ALIVE: undefined, LOUPE_LOG_LEVEL: 'error' };

describe('loupe doctor: reloads', () => {
  afterEach(stopAll);

  it('warns of a model loaded at another context, and of keep_alive shorter than the approval timeout', async () => {
    const { url } = await startStandin({ loaded: [{ model: 'qwen3:8b', numCtx: 4096 }] });
    const r = await runCli(['doctor', '--json', '--no-probe', '-m', 'qwen3:8b,llama3.1:8b'], {
      ...BASE_ENV,
      OLLAMA_HOST: url,
      OLLAMA_KEEP_ALIVE: '1m',
    });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.level).toBe('warn');
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        check: 'keep_alive',
        level: 'warn',
        message: expect.stringMatching(/^keep_alive 1 min is shorter than the approval timeout 5 min/),
      }),
    );
    const qwen = report.models.find((m) => m.model === 'qwen3:8b')!;
    expect(qwen.loadedContext).toBe(4096);
    expect(qwen.findings).toContainEqual(
      expect.objectContaining({
        check: 'reloads',
        level: 'warn',
        message: expect.stringMatching(/^loaded with context 4096 \(\/api\/ps\); num_ctx 8192 reloads it/),
      }),
    );
    const llama = report.models.find((m) => m.model === 'llama3.1:8b')!;
    expect(llama.findings.find((f) => f.check === 'reloads')).toEqual(
      expect.objectContaining({ level: 'ok', message: 'one load at num_ctx 8192' }),
    );
  });

  it('counts one load per num_ctx value with --num-ctx, and passes the default keep_alive', async () => {
    const { url } = await startStandin();
    const r = await runCli(['doctor', '--json', '--no-probe', '-m', 'llama3.1:8b', '--num-ctx', '4096'], { ...BASE_ENV, OLLAMA_HOST: url });
    const report = JSON.parse(r.stdout) as Report;
    expect(report.findings.find((f) => f.check === 'keep_alive')?.level).toBe('ok');
    expect(report.models[0].findings.find((f) => f.check === 'reloads')?.message).toMatch(/^num_ctx 8192, 4096: one load per value/);
  });

  it('fails a cloud model when the host is not signed in (exit 1)', async () => {
    const { url } = await startStandin({ cloud: 'signed_out', script: { turns: { '*': [{ content: 'ok' }] }, loop: true } });
    const r = await runCli(['doctor', '--json', '-m', 'gpt-oss:120b-cloud'], { ...BASE_ENV, OLLAMA_HOST: url });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.models[0].findings).toContainEqual(
      expect.objectContaining({
        check: 'cloud',
        level: 'fail',
        message: expect.stringMatching(/is not signed in to ollama\.com, so the cloud model gpt-oss:120b-cloud cannot run/),
      }),
    );
  });
});
