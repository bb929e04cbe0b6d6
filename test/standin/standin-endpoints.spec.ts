// The stand-in's non-chat endpoints, through the real ollama client and raw HTTP.
import { post, rawRequest, rejection, responseError, startStandin, stopAll, userMessage } from './standin-test-kit';

afterEach(stopAll);

const GO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;

describe('GET/HEAD /', () => {
  it('says Ollama is running as text/plain', async () => {
    const { url } = await startStandin();
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('Ollama is running');
    const head = await fetch(`${url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('/api/version', () => {
  it('returns the configured version to GET, HEAD and the client', async () => {
    const { url, client } = await startStandin({ version: '0.12.6' });
    expect(await client.version()).toEqual({ version: '0.12.6' });
    const raw = await fetch(`${url}/api/version`);
    expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await raw.text()).toBe('{"version":"0.12.6"}');
    expect((await fetch(`${url}/api/version`, { method: 'HEAD' })).status).toBe(200);
  });
});

describe('/api/tags', () => {
  it('lists installed models with Go field order, 64-hex digests and details', async () => {
    const { url, client } = await startStandin();
    const { models } = await client.list();
    expect(models.map((m) => m.name)).toEqual([
      'llama3.1:8b',
      'qwen3:8b',
      'qwen2.5:0.5b',
      'gemma:2b',
      'mistral:7b',
      'gpt-oss:120b-cloud',
      'deepseek-r1:14b',
    ]);
    const raw = (await (await fetch(`${url}/api/tags`)).json()) as { models: Record<string, unknown>[] };
    const llama = raw.models[0];
    // at HEAD: capabilities (omitempty) before details, and the training context in details
    expect(Object.keys(llama)).toEqual(['name', 'model', 'modified_at', 'size', 'digest', 'capabilities', 'details']);
    expect(llama.capabilities).toEqual(['completion', 'tools']);
    expect(llama.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(llama.modified_at).toMatch(GO_TIME);
    expect(llama.details).toEqual({
      parent_model: '',
      format: 'gguf',
      family: 'llama',
      families: ['llama'],
      parameter_size: '8.0B',
      quantization_level: 'Q4_K_M',
      context_length: 131_072,
      embedding_length: 4096,
    });
    // newest first
    const times = raw.models.map((m) => Date.parse(m.modified_at as string));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('cloud models carry remote_model/remote_host and a tiny size', async () => {
    const { url } = await startStandin();
    const raw = (await (await fetch(`${url}/api/tags`)).json()) as { models: Record<string, unknown>[] };
    const cloud = raw.models.find((m) => m.name === 'gpt-oss:120b-cloud')!;
    expect(Object.keys(cloud)).toEqual([
      'name',
      'model',
      'remote_model',
      'remote_host',
      'modified_at',
      'size',
      'digest',
      'capabilities',
      'details',
    ]);
    expect(cloud.details).toMatchObject({ context_length: 131_072 });
    expect(cloud.details).not.toHaveProperty('embedding_length');
    expect(cloud.remote_model).toBe('gpt-oss:120b');
    expect(cloud.remote_host).toBe('https://ollama.com:443');
    expect(cloud.size).toBeLessThan(10_000);
    expect(raw.models.filter((m) => 'remote_host' in m).map((m) => m.name)).toEqual(['gpt-oss:120b-cloud']);
  });

  it('answers HEAD with headers only', async () => {
    const { url } = await startStandin();
    const head = await fetch(`${url}/api/tags`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, 'application/json; charset=utf-8', '']);
  });

  it('an empty catalog lists {"models":[]}', async () => {
    const { url } = await startStandin({ catalog: [] });
    expect(await (await fetch(`${url}/api/tags`)).text()).toBe('{"models":[]}');
  });
});

describe('/api/show', () => {
  it('returns capabilities, details, model_info and modified_at', async () => {
    const { client } = await startStandin();
    const show = await client.show({ model: 'qwen3:8b' });
    expect(show.capabilities).toEqual(['completion', 'tools', 'thinking']);
    expect(show.details.family).toBe('qwen3');
    const info = show.model_info as unknown as Record<string, unknown>;
    expect(info['general.architecture']).toBe('qwen3');
    expect(info[`${info['general.architecture']}.context_length`]).toBe(40960);
    expect(String(show.modified_at)).toMatch(GO_TIME);
  });

  it('accepts the old `name` field', async () => {
    const { url } = await startStandin();
    const res = await post(url, '/api/show', { name: 'gemma:2b' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { capabilities: string[] }).capabilities).toEqual(['completion']);
  });

  it('cloud models show remote_model/remote_host', async () => {
    const { client } = await startStandin();
    const show = (await client.show({ model: 'gpt-oss:120b-cloud' })) as unknown as Record<string, unknown>;
    expect(show.remote_model).toBe('gpt-oss:120b');
    expect(show.remote_host).toBe('https://ollama.com:443');
  });

  it('errors: missing model 400, unknown model 404, invalid name 400', async () => {
    const { url, client } = await startStandin();
    expect(responseError(await rejection(client.show({ model: 'llama9' })))).toEqual({ status: 404, message: "model 'llama9' not found" });
    const missing = await post(url, '/api/show', {});
    expect([missing.status, await missing.text()]).toEqual([400, '{"error":"model is required"}']);
    const invalid = await post(url, '/api/show', { model: 'bad name' });
    expect([invalid.status, await invalid.text()]).toEqual([400, '{"error":"invalid model name"}']);
    const empty = await post(url, '/api/show', '');
    expect([empty.status, await empty.text()]).toEqual([400, '{"error":"missing request body"}']);
  });
});

describe('/api/ps', () => {
  it('is empty until a model loads, then lists it with VRAM, expiry and context length', async () => {
    const { url, client } = await startStandin({ script: { turns: { '*': [{ content: 'hi' }] } } });
    expect(await (await fetch(`${url}/api/ps`)).text()).toBe('{"models":[]}');
    await client.chat({ model: 'qwen3:8b', messages: userMessage('hello') });
    const raw = (await (await fetch(`${url}/api/ps`)).json()) as { models: Record<string, unknown>[] };
    expect(raw.models).toHaveLength(1);
    const entry = raw.models[0];
    expect(Object.keys(entry)).toEqual(['name', 'model', 'size', 'digest', 'details', 'expires_at', 'size_vram', 'context_length']);
    expect(entry).toMatchObject({
      name: 'qwen3:8b',
      model: 'qwen3:8b',
      size: 6_550_000_000,
      size_vram: 6_550_000_000,
      context_length: 4096,
    });
    const ttl = Date.parse(entry.expires_at as string) - Date.now();
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
  });

  it('reflects keep_alive and num_ctx; cloud models never appear', async () => {
    const { client } = await startStandin({ script: { turns: { '*': [{ content: 'a' }, { content: 'b' }] } } });
    await client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), keep_alive: -1, options: { num_ctx: 8192 } });
    await client.chat({ model: 'gpt-oss:120b-cloud', messages: userMessage('x') });
    const { models } = await client.ps();
    expect(models.map((m) => m.name)).toEqual(['llama3.1:8b']);
    expect((models[0] as unknown as { context_length: number }).context_length).toBe(8192);
    expect(Date.parse(String(models[0].expires_at))).toBeGreaterThan(Date.now() + 100 * 365 * 24 * 3600_000);
  });

  it('HEAD /api/ps is 405 (only GET is routed)', async () => {
    const { url } = await startStandin();
    expect((await fetch(`${url}/api/ps`, { method: 'HEAD' })).status).toBe(405);
  });
});

describe('DELETE /api/delete', () => {
  it('deletes with 200 and an empty body; the model is gone afterwards', async () => {
    const { url, client } = await startStandin();
    const raw = await rawRequest(url, 'DELETE', '/api/delete', JSON.stringify({ model: 'gemma:2b' }));
    expect(raw.status).toBe(200);
    expect(raw.body).toBe('');
    expect(raw.headers['content-length']).toBe('0');
    expect((await client.list()).models.map((m) => m.name)).not.toContain('gemma:2b');
    expect(responseError(await rejection(client.chat({ model: 'gemma:2b', messages: userMessage('x') })))).toEqual({
      status: 404,
      message: "model 'gemma:2b' not found",
    });
  });

  it('the client (which sends `name`) succeeds; a second delete is 404', async () => {
    const { client } = await startStandin();
    expect(await client.delete({ model: 'mistral:7b' })).toEqual({ status: 'success' });
    expect(responseError(await rejection(client.delete({ model: 'mistral:7b' })))).toEqual({
      status: 404,
      message: "model 'mistral:7b' not found",
    });
  });
});

describe('routing', () => {
  it('unknown routes are 404 text/plain "404 page not found"', async () => {
    const { url } = await startStandin();
    const res = await fetch(`${url}/api/nothing`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('404 page not found');
  });

  it('a wrong method is 405 "405 method not allowed"', async () => {
    const { url } = await startStandin();
    for (const [method, path] of [
      ['GET', '/api/chat'],
      ['POST', '/api/tags'],
      ['GET', '/api/delete'],
      ['PUT', '/'],
    ]) {
      const res = await fetch(`${url}${path}`, { method });
      expect([method, path, res.status, res.headers.get('content-type'), await res.text()]).toEqual([
        method,
        path,
        405,
        'text/plain',
        '405 method not allowed',
      ]);
    }
  });

  it('query strings do not change the route', async () => {
    const { url } = await startStandin();
    expect(await (await fetch(`${url}/api/version?x=1`)).json()).toEqual({ version: expect.any(String) });
  });
});

describe('request log', () => {
  it('records method, path, parsed body and receivedAt for every request', async () => {
    const { url, server } = await startStandin();
    const before = Date.now();
    await fetch(`${url}/api/tags`);
    await post(url, '/api/show', { model: 'qwen3:8b' });
    await post(url, '/api/show', 'not json');
    await server.settled();
    expect(server.requests.map((r) => [r.method, r.path, r.body, r.status])).toEqual([
      ['GET', '/api/tags', undefined, 200],
      ['POST', '/api/show', { model: 'qwen3:8b' }, 200],
      ['POST', '/api/show', 'not json', 400],
    ]);
    for (const r of server.requests) {
      expect(r.receivedAt).toBeGreaterThanOrEqual(before - 5);
      expect(r.finishedAt).toBeGreaterThanOrEqual(r.receivedAt);
      expect(r.cancelled).toBe(false);
    }
    server.reset();
    expect(server.requests).toHaveLength(0);
  });

  it('reset() restores installed models, unloads everything and restarts the script', async () => {
    const { client, server } = await startStandin({ script: { turns: { '*': [{ content: 'first' }] } } });
    expect((await client.chat({ model: 'qwen3:8b', messages: userMessage('x') })).message.content).toBe('first');
    await client.delete({ model: 'gemma:2b' });
    server.reset();
    expect((await client.ps()).models).toEqual([]);
    expect((await client.list()).models.map((m) => m.name)).toContain('gemma:2b');
    expect((await client.chat({ model: 'qwen3:8b', messages: userMessage('x') })).message.content).toBe('first');
  });
});
