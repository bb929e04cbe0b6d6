// The stand-in's scheduler across requests, through the real ollama client over HTTP: reloads on
// changed runner options (draining in-flight requests first), keep_alive expiry on a scaled clock,
// LRU eviction at MAX_LOADED_MODELS, the 503 only for a full load queue, cloud sign-in errors,
// fault presets and preloaded models. Order is read from the server's logs, never from timers.
import type { StandinModel } from '../../src/standin/standin-script';
import type { StandinRequestRecord } from '../../src/standin/standin-request-log';
import { CLOUD_SIGNIN_URL, FAULT_PRESETS, presetFault } from '../../src/standin/standin-fault';
import { post, rejection, responseError, startStandin, stopAll, until, userMessage } from './standin-test-kit';

afterEach(stopAll);

const local = (name: string, extra: Partial<StandinModel> = {}): StandinModel => ({
  name,
  family: 'llama',
  parameterSize: '8.0B',
  quantization: 'Q4_K_M',
  capabilities: ['completion', 'tools'],
  vramBytes: 5_000_000_000,
  sizeBytes: 4_000_000_000,
  contextLength: 32_768,
  ...extra,
});
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const chats = (records: readonly StandinRequestRecord[]) => records.filter((r) => r.path === '/api/chat');
/** ollama-js does not type /api/ps context_length (Ollama ≥ 0.9.7 sends it) */
const ctxOf = (m: object) => (m as { context_length?: number }).context_length;

describe('reload on changed runner options', () => {
  it('drains the in-flight request, reloads, reports the load only on the reloading reply, and /api/ps shows the new context', async () => {
    const { client, server } = await startStandin({
      catalog: [local('gpu:1', { loadMs: 40, tokensPerSecond: 200, parallel: 2 })],
      script: { turns: { '*': [{ content: words(12) }] }, loop: true },
    });
    await client.chat({ model: 'gpu:1', messages: [], options: { num_ctx: 4096 } } as never);
    expect(ctxOf((await client.ps()).models[0])).toBe(4096);
    const inflight = client.chat({ model: 'gpu:1', messages: userMessage('old'), options: { num_ctx: 4096 } });
    await server.waitForRequests((rs) => chats(rs)[1]?.slotAcquiredAt !== undefined);
    const reloading = client.chat({ model: 'gpu:1', messages: userMessage('new'), options: { num_ctx: 2048, num_batch: 1024 } });
    const [old, fresh] = await Promise.all([inflight, reloading]);
    const after = await client.chat({ model: 'gpu:1', messages: userMessage('again'), options: { num_ctx: 2048, num_batch: 1024 } });

    const [, r1, r2] = chats(server.requests);
    // the reload started only once the in-flight request had let go of the runner
    expect(r2.load).toMatchObject({
      cause: 'options_changed',
      previous: { numCtx: 4096, numBatch: 512 },
      runner: { numCtx: 2048, numBatch: 1024 },
    });
    expect(r2.load!.startedAtMs).toBeGreaterThanOrEqual(r1.slotReleasedAt!);
    expect(old.load_duration).toBeLessThan(40_000_000);
    expect(fresh.load_duration).toBeGreaterThanOrEqual(39_000_000);
    expect(after.load_duration).toBeLessThan(fresh.load_duration);
    expect(server.loads.map((l) => l.cause)).toEqual(['first_load', 'options_changed']);
    const { models } = await client.ps();
    expect(models.map((m) => [m.name, ctxOf(m)])).toEqual([['gpu:1', 2048]]);
  });

  it("caps num_ctx at the model's training length: /api/ps shows the cap and asking above it again is no reload", async () => {
    const { client, server } = await startStandin({
      catalog: [local('gpu:1', { contextLength: 8192 })],
      script: { turns: { '*': [{ content: 'hi' }] }, loop: true },
    });
    await client.chat({ model: 'gpu:1', messages: userMessage('x'), options: { num_ctx: 262_144 } });
    await client.chat({ model: 'gpu:1', messages: userMessage('x'), options: { num_ctx: 100_000 } });
    expect(ctxOf((await client.ps()).models[0])).toBe(8192);
    expect(server.loads).toHaveLength(1);
  });

  it('a model loaded warm at another context (loaded:) reloads for the run’s options', async () => {
    const { client, server } = await startStandin({
      catalog: [local('gpu:1', { loadMs: 30 })],
      loaded: [{ model: 'gpu:1', numCtx: 2048 }],
      script: { turns: { '*': [{ content: 'hi' }] }, loop: true },
    });
    expect((await client.ps()).models.map(ctxOf)).toEqual([2048]);
    const reply = await client.chat({ model: 'gpu:1', messages: userMessage('x'), options: { num_ctx: 8192 } });
    expect(reply.load_duration).toBeGreaterThanOrEqual(29_000_000);
    expect(server.loads.map((l) => [l.cause, l.preloaded ?? false])).toEqual([
      ['first_load', true],
      ['options_changed', false],
    ]);
    expect((await client.ps()).models.map(ctxOf)).toEqual([8192]);
  });
});

describe('keep_alive', () => {
  it('expires on the scaled clock: /api/ps empties and the next request pays a load with cause keep_alive_expired', async () => {
    const { client, server } = await startStandin({
      timeScale: 0.001, // 5 minutes → 300 ms, a 40 s load → 40 ms
      catalog: [local('gpu:1', { loadMs: 40_000 })],
      script: { turns: { '*': [{ content: 'hi' }] }, loop: true },
    });
    await client.chat({ model: 'gpu:1', messages: userMessage('x') });
    expect((await client.ps()).models).toHaveLength(1);
    await until(() => server.loads.length === 1 && !server.loadedModelNames().length, 10_000);
    const next = await client.chat({ model: 'gpu:1', messages: userMessage('x') });
    expect(next.load_duration).toBeGreaterThanOrEqual(39_000_000);
    expect(server.loads.map((l) => l.cause)).toEqual(['first_load', 'keep_alive_expired']);
  });

  it('number = seconds, negative = forever (a far-future expires_at), 0 = unload after the request', async () => {
    const { client } = await startStandin({
      catalog: [local('a:1'), local('b:1'), local('c:1')],
      script: { turns: { '*': [{ content: 'hi' }] }, loop: true },
    });
    await client.chat({ model: 'a:1', messages: userMessage('x'), keep_alive: 600 });
    await client.chat({ model: 'b:1', messages: userMessage('x'), keep_alive: -1 });
    await client.chat({ model: 'c:1', messages: userMessage('x'), keep_alive: 0 });
    const { models } = await client.ps();
    expect(models.map((m) => m.name)).toEqual(['b:1', 'a:1']);
    const inYears = (new Date(models[0].expires_at).getTime() - Date.now()) / (365 * 24 * 3600_000);
    expect(inYears).toBeGreaterThan(100);
    const inSeconds = (new Date(models[1].expires_at).getTime() - Date.now()) / 1000;
    expect(inSeconds).toBeGreaterThan(500);
    expect(inSeconds).toBeLessThanOrEqual(600);
  });
});

describe('eviction', () => {
  it('at maxLoadedModels the least recently used idle model is evicted, and its next request reloads it', async () => {
    const { client, server } = await startStandin({
      maxLoadedModels: 2,
      catalog: ['a:1', 'b:1', 'c:1'].map((n) => local(n)),
      script: { turns: { '*': [{ content: 'hi' }] }, loop: true },
    });
    for (const name of ['a:1', 'b:1', 'a:1', 'c:1']) await client.chat({ model: name, messages: userMessage('x') });
    expect((await client.ps()).models.map((m) => m.name).sort()).toEqual(['a:1', 'c:1']);
    expect(server.loads.at(-1)).toMatchObject({ model: 'c:1', evicted: ['b:1'] });
    await client.chat({ model: 'b:1', messages: userMessage('x') });
    expect(server.loads.at(-1)).toMatchObject({ model: 'b:1', cause: 'evicted', evicted: ['a:1'] });
  });

  it('VRAM fit: a model at a large context evicts another to fit', async () => {
    const { client, server } = await startStandin({
      gpuVramBytes: 12_000_000_000,
      catalog: [local('a:1'), local('b:1', { contextLength: 131_072 })],
      script: { turns: { '*': [{ content: 'hi' }] }, loop: true },
    });
    await client.chat({ model: 'a:1', messages: userMessage('x') });
    await client.chat({ model: 'b:1', messages: userMessage('x'), options: { num_ctx: 4096 } });
    expect((await client.ps()).models).toHaveLength(2); // 5 GB + 5 GB fit in 12
    await client.chat({ model: 'b:1', messages: userMessage('x'), options: { num_ctx: 32_768 } }); // + 28k × 128 KiB
    expect(server.loads.at(-1)).toMatchObject({ model: 'b:1', cause: 'options_changed', evicted: ['a:1'] });
    const [b] = (await client.ps()).models;
    expect(b.size_vram).toBe(5_000_000_000 + (32_768 - 4096) * 131_072);
  });
});

describe('queueing', () => {
  it('1000 requests waiting for a slot all get served; the 503 comes only once the load queue is full', async () => {
    const { url, client, server } = await startStandin({
      maxQueue: 4,
      catalog: [local('gpu:1', { parallel: 1 }), local('cold:1', { loadMs: 60_000 })],
      script: { turns: { '*': [{ content: 'ok' }] }, loop: true },
    });
    await client.chat({ model: 'gpu:1', messages: [] } as never);
    const many = Array.from({ length: 1000 }, () => post(url, '/api/chat', { model: 'gpu:1', messages: userMessage('x'), stream: false }));
    const statuses = (await Promise.all(many)).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1000);
    expect(server.requests.some((r) => r.status === 503)).toBe(false);

    // the load queue: one loading, four behind it, the sixth refused
    const controller = new AbortController();
    const cold = () =>
      post(url, '/api/chat', { model: 'cold:1', messages: userMessage('x') }, { signal: controller.signal }).catch(() => undefined);
    const waiting = [cold()];
    await until(() => server.waiting === 1);
    for (let i = 0; i < 4; i++) waiting.push(cold());
    await until(() => server.pendingLoads === 4);
    const refused = responseError(await rejection(client.chat({ model: 'cold:1', messages: userMessage('x') })));
    expect(refused).toEqual({ status: 503, message: 'server busy, please try again.  maximum pending requests exceeded' });
    controller.abort();
    await Promise.all(waiting);
  });
});

describe('cloud models', () => {
  it('signed out: 401 {"error":"unauthorized","signin_url":…}', async () => {
    const { url, client } = await startStandin({ cloud: 'signed_out', script: { turns: { '*': [{ content: 'hi' }] } } });
    const res = await post(url, '/api/chat', { model: 'gpt-oss:120b-cloud', messages: userMessage('x') });
    expect(res.status).toBe(401);
    // Go's encoder escapes & as \u0026, as gin's c.JSON does
    expect(await res.text()).toBe(`{"error":"unauthorized","signin_url":"${CLOUD_SIGNIN_URL.replace('&', '\\u0026')}"}`);
    expect(CLOUD_SIGNIN_URL).toMatch(/^https:\/\/ollama\.com\/connect\?name=standin&key=[A-Za-z0-9_-]+$/);
    expect(responseError(await rejection(client.chat({ model: 'gpt-oss:120b-cloud', messages: userMessage('x') })))).toEqual({
      status: 401,
      message: 'unauthorized',
    });
    // local models are unaffected
    expect((await client.chat({ model: 'llama3.1:8b', messages: userMessage('x') })).message.content).toBe('hi');
  });

  it('disabled: 403 with Ollama’s text', async () => {
    const { client } = await startStandin({ cloud: 'disabled', script: { turns: { '*': [{ content: 'hi' }] } } });
    expect(responseError(await rejection(client.chat({ model: 'gpt-oss:120b-cloud', messages: userMessage('x') })))).toEqual({
      status: 403,
      message: 'ollama cloud is disabled: remote model is unavailable',
    });
  });
});

describe('fault presets', () => {
  it.each(Object.entries(FAULT_PRESETS))('%s answers its status and text, then the turn is served', async (name, { status, error }) => {
    const { client } = await startStandin({
      script: { turns: { '*': [{ content: 'after', fault: presetFault(name as keyof typeof FAULT_PRESETS) }] } },
    });
    expect(responseError(await rejection(client.chat({ model: 'llama3.1:8b', messages: userMessage('x') })))).toEqual({
      status,
      message: error,
    });
    expect((await client.chat({ model: 'llama3.1:8b', messages: userMessage('x') })).message.content).toBe('after');
  });
});
