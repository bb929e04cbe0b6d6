// The admin API for models (ollama-provider.spec.md's model management) against a stand-in at
// OLLAMA_HOST, over real HTTP: the available list is cached (the MCP agent probes on every call,
// its known slow endpoint), diagnostics per model, running models, pulls with progress, details,
// delete; readiness follows the configured Ollama.
import { DEFAULT_CATALOG } from '../../src/standin/standin-catalog';
import { StandinServer } from '../../src/standin/standin-server';
import { eventually, startApiApp, type ApiApp, expectJson } from '../support/api-app';

interface Diagnosis {
  model: string;
  installed: boolean;
  ok: boolean;
  toolCalling: { mode: string; reason: string };
  problems: string[];
}

describe('admin API: models and readiness', () => {
  let standin: StandinServer;
  let a: ApiApp;
  const tagRequests = () => standin.requests.filter((r) => r.path === '/api/tags').length;

  beforeAll(async () => {
    standin = new StandinServer({
      catalog: [
        ...DEFAULT_CATALOG,
        { name: 'phi4:14b', family: 'phi3', parameterSize: '14.7B', capabilities: ['completion'], installed: false },
      ],
      pull: { stepMs: 2, progressSteps: 4 },
    });
    const { url } = await standin.start(0);
    a = await startApiApp({ OLLAMA_HOST: url, OLLAMA_LOCAL_HOST: url });
  });
  afterAll(async () => {
    await a?.close();
    await standin?.stop();
  });

  it.each([
    ['GET', '/api/models/available'],
    ['GET', '/api/models/check'],
    ['GET', '/api/models/running'],
    ['GET', '/api/models/pulls'],
    ['POST', '/api/models/pull'],
    ['GET', '/api/models/qwen3:8b'],
    ['DELETE', '/api/models/qwen3:8b'],
  ])('%s %s refuses a missing or wrong token', async (method, route) => {
    const body = method === 'POST' ? { model: 'phi4:14b' } : undefined;
    expect((await a.call(method, route, body, null)).status).toBe(401);
    expect((await a.call(method, route, body, 'nope')).status).toBe(401);
  });

  it('lists what the host serves from a 30 s cache, asking again only on ?refresh=true', async () => {
    const first = await expectJson<{ host: string; models: Array<{ name: string; capabilities: string[] }>; ageMs: number }>(
      await a.call('GET', '/api/models/available'),
      200,
    );
    expect(first.host).toBe(standin.url);
    expect(first.models.map((m) => m.name)).toEqual(expect.arrayContaining(['qwen3:8b', 'llama3.1:8b']));
    expect(first.models.find((m) => m.name === 'qwen3:8b')!.capabilities).toEqual(expect.arrayContaining(['tools']));
    const asked = tagRequests();
    for (let i = 0; i < 5; i++) await expectJson(await a.call('GET', '/api/models/available'), 200);
    expect(tagRequests()).toBe(asked);
    await expectJson(await a.call('GET', '/api/models/available?refresh=true'), 200);
    expect(tagRequests()).toBe(asked + 1);
    expect((await expectJson<{ errors: unknown[] }>(await a.call('GET', '/api/models/available?refresh=maybe'), 400)).errors).toEqual([
      { field: 'refresh', message: 'must be a boolean value' },
    ]);
  });

  it('diagnoses every model, or the ones named, and details one (404 for a model the host lacks)', async () => {
    const all = await expectJson<{ reachable: boolean; version: string; models: Diagnosis[] }>(
      await a.call('GET', '/api/models/check'),
      200,
    );
    expect(all.reachable).toBe(true);
    expect(all.models.find((m) => m.model === 'qwen3:8b')).toEqual(
      expect.objectContaining({ installed: true, ok: true, toolCalling: { mode: 'text', reason: 'text_family' } }),
    );
    const named = await expectJson<{ models: Diagnosis[] }>(await a.call('GET', '/api/models/check?model=llama3.1:8b&model=phi4:14b'), 200);
    expect(named.models.map((m) => [m.model, m.installed, m.ok])).toEqual([
      ['llama3.1:8b', true, true],
      ['phi4:14b', false, false],
    ]);
    expect(named.models[1].problems).toEqual(['not installed on the host: pull it first']);
    const one = await expectJson<{ name: string; family: string; diagnosis: Diagnosis }>(
      await a.call('GET', `/api/models/${encodeURIComponent('llama3.1:8b')}`),
      200,
    );
    expect(one).toEqual(expect.objectContaining({ name: 'llama3.1:8b', diagnosis: expect.objectContaining({ ok: true }) }));
    expect((await expectJson<{ message: string }>(await a.call('GET', '/api/models/phi4:14b'), 404)).message).toMatch(
      /has no model phi4:14b/,
    );
    expect(await expectJson<unknown[]>(await a.call('GET', '/api/models/running'), 200)).toEqual(expect.any(Array));
  });

  it('pulls in the background with progress, then lists, deletes (404 the second time) and records both', async () => {
    expect((await expectJson<{ errors: unknown[] }>(await a.call('POST', '/api/models/pull', {}), 400)).errors).toEqual(
      expect.arrayContaining([{ field: 'model', message: 'must be a string' }]),
    );
    const started = await expectJson<{ model: string; status: string }>(
      await a.call('POST', '/api/models/pull', { model: 'phi4:14b' }),
      202,
    );
    expect(started.model).toBe('phi4:14b');
    const done = await eventually(async () => {
      const pulls = await expectJson<Array<{ model: string; status: string; percent: number }>>(
        await a.call('GET', '/api/models/pulls'),
        200,
      );
      return pulls.find((p) => p.model === 'phi4:14b' && p.status === 'success');
    }, 'the pull to finish');
    expect(done.percent).toBe(100);
    const after = await expectJson<{ models: Array<{ name: string }> }>(await a.call('GET', '/api/models/available'), 200);
    expect(after.models.map((m) => m.name)).toContain('phi4:14b');
    expect(await expectJson(await a.call('DELETE', '/api/models/phi4:14b'), 200)).toEqual({ deleted: 'phi4:14b' });
    expect((await a.call('DELETE', '/api/models/phi4:14b')).status).toBe(404);
  });

  it('is ready while Postgres and the configured Ollama answer; /health needs no token', async () => {
    expect(await expectJson(await a.call('GET', '/health', undefined, null), 200)).toEqual({ status: 'ok', database: 'up' });
    expect(await expectJson(await a.call('GET', '/ready'), 200)).toEqual({
      ready: true,
      database: 'up',
      ollama: { host: standin.url, configured: true, reachable: true },
    });
    const down = await startApiApp({ OLLAMA_HOST: 'http://127.0.0.1:9' });
    try {
      expect(await expectJson(await down.call('GET', '/ready'), 503)).toEqual(
        expect.objectContaining({ ready: false, database: 'up', ollama: expect.objectContaining({ reachable: false }) }),
      );
      const unavailable = await expectJson<{ statusCode: number; message: string }>(await down.call('GET', '/api/models/available'), 503);
      expect(unavailable.message).toMatch(/^Ollama at http:\/\/127.0.0.1:9 cannot list its models/);
      // as its siblings: 503 through the error mapping, not a bare 500
      const running = await expectJson<{ statusCode: number; message: string }>(await down.call('GET', '/api/models/running'), 503);
      expect(running.message).toMatch(/^Ollama at http:\/\/127.0.0.1:9 cannot list its running models/);
      expect(await expectJson(await down.call('GET', '/api/models/check'), 200)).toEqual(
        expect.objectContaining({ reachable: false, models: [] }),
      );
    } finally {
      await down.close();
    }
  });

  it('publishes the OpenAPI document (behind the token) with every route', async () => {
    const doc = await expectJson<{ paths: Record<string, unknown> }>(await a.call('GET', '/api/docs-json'), 200);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/health',
        '/ready',
        '/api/sessions',
        '/api/sessions/{id}',
        '/api/sessions/{id}/messages',
        '/api/sessions/{id}/kill',
        '/api/approvals',
        '/api/approvals/{callId}',
        '/api/eval-runs',
        '/api/eval-runs/compare',
        '/api/eval-runs/{id}',
        '/api/models/available',
        '/api/models/check',
        '/api/models/running',
        '/api/models/pull',
        '/api/models/pulls',
        '/api/models/{name}',
        '/api/mcp',
        '/api/mcp/add',
        '/api/mcp/health',
        '/api/mcp/{name}',
        '/api/events/catalogue',
      ]),
    );
    const ui = await a.call('GET', '/api/docs');
    expect(ui.status).toBe(200);
    expect(await ui.text()).toMatch(/swagger/i);
  });
});
