// GET /api/doctor over real HTTP, against a stand-in at OLLAMA_HOST: token-protected like the other
// admin routes, the CLI's report as JSON, its query validated, and listed in the OpenAPI document.
import { StandinServer } from '../../src/standin/standin-server';
import { expectJson, startApiApp, type ApiApp } from '../support/api-app';

interface Report {
  host: string;
  reachable: boolean;
  level: string;
  numCtx: Array<{ source: string; value: number }>;
  models: Array<{ model: string; contextLength: number; probe: { ok: boolean } | null; findings: Array<{ check: string; level: string }> }>;
}

describe('admin API: doctor', () => {
  let standin: StandinServer;
  let a: ApiApp;

  beforeAll(async () => {
    standin = new StandinServer({ script: { turns: { '*': [{ content: 'ok' }] }, loop: true } });
    const { url } = await standin.start(0);
    a = await startApiApp({ OLLAMA_HOST: url, OLLAMA_LOCAL_HOST: url });
  });
  afterAll(async () => {
    await a?.close();
    await standin?.stop();
  });

  it('refuses a missing or wrong token', async () => {
    expect((await a.call('GET', '/api/doctor', undefined, null)).status).toBe(401);
    expect((await a.call('GET', '/api/doctor', undefined, 'nope')).status).toBe(401);
  });

  it('reports the host and the models named, probed', async () => {
    const report = await expectJson<Report>(await a.call('GET', '/api/doctor?model=qwen3:8b'), 200);
    expect(report).toEqual(expect.objectContaining({ host: standin.url, reachable: true, level: 'ok' }));
    expect(report.models).toEqual([
      expect.objectContaining({ model: 'qwen3:8b', contextLength: 40960, probe: expect.objectContaining({ ok: true }) }),
    ]);
  });

  it('checks a given numCtx without probing, and validates the query', async () => {
    const chats = () => standin.requests.filter((r) => r.path === '/api/chat').length;
    const before = chats();
    const report = await expectJson<Report>(await a.call('GET', '/api/doctor?model=qwen3:8b&probe=false&numCtx=65536'), 200);
    expect(chats()).toBe(before);
    expect(report.level).toBe('fail');
    expect(report.models[0].probe).toBeNull();
    expect(report.models[0].findings.filter((f) => f.check === 'num_ctx').map((f) => f.level)).toEqual(['ok', 'fail']);
    const bad = await expectJson<{ errors: Array<{ field: string }> }>(await a.call('GET', '/api/doctor?numCtx=lots'), 400);
    expect(bad.errors.map((e) => e.field)).toContain('numCtx');
  });

  it('is in the OpenAPI document', async () => {
    const doc = await expectJson<{ paths: Record<string, { get?: { summary?: string; parameters?: Array<{ name: string }> } }> }>(
      await a.call('GET', '/api/docs-json'),
      200,
    );
    const get = doc.paths['/api/doctor']?.get;
    expect(get?.summary).toMatch(/OLLAMA_HOST/);
    expect(get?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['model', 'probe', 'numCtx']));
  });
});
