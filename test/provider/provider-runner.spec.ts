// The client against an Ollama that reloads (issue 38): the warm-up loads with exactly the runner
// options and keep_alive the chats send, a load cache keyed on (model, options), model_reloaded with
// its cause when a reply shows a load on a model the provider believed warm, the loaded context from
// /api/ps for the truncation guard, and the server version with every usage figure. Real stand-in,
// real ollama client over HTTP.
import { cleanup, chatRequests, eventRecorder, localModel, makeProvider, startStandin, user } from './provider-test-kit';

afterEach(cleanup);

const MODEL = 'llama3.2:3b';
type Body = { messages: unknown[]; options?: Record<string, unknown>; keep_alive?: unknown; think?: unknown };
const bodyOf = (r: { body: unknown }) => r.body as Body;

async function setup(overrides: Parameters<typeof makeProvider>[1] = {}) {
  const { server, url } = await startStandin({
    catalog: [localModel(MODEL, { loadMs: 300, contextLength: 32_768 })],
    script: { turns: { '*': [{ content: 'ok' }] }, loop: true },
  });
  const { provider } = makeProvider(url, { reloadThresholdMs: 100, ...overrides });
  return { server, url, provider };
}

describe('warm-up with the options of inference, plus keep_alive', () => {
  it('loads with num_ctx and keep_alive only (num_batch/num_gpu unset), and the chat sends the same: no reload', async () => {
    const { server, provider } = await setup();
    await provider.warm(MODEL, { numCtx: 4096 });
    const events = eventRecorder();
    const result = await provider.complete({ model: MODEL, messages: user('hi'), options: { numCtx: 4096 }, onEvent: events.sink });
    const [load, chat] = chatRequests(server).map(bodyOf);
    expect(load.messages).toEqual([]);
    expect(load.options).toEqual({ num_ctx: 4096 });
    expect(load.keep_alive).toBe('30m');
    expect(chat.keep_alive).toBe('30m');
    expect(chat.options).toMatchObject({ num_ctx: 4096 });
    expect(chat.options).not.toHaveProperty('num_batch');
    expect(chat.options).not.toHaveProperty('num_gpu');
    expect(events.of('model_reloaded')).toEqual([]);
    // the context the runner was loaded with, read from /api/ps after the warm-up
    expect(result.prompt).toMatchObject({ contextLength: 4096, contextSource: 'loaded' });
    expect(result.serverVersion).toEqual(expect.any(String));
    expect(events.of('inference_response')[0]).toMatchObject({ serverVersion: result.serverVersion, contextSource: 'loaded' });
  });

  it('sends num_batch and num_gpu in the load and the chat when configured, and a configured keep_alive', async () => {
    const { server, provider } = await setup({ numBatch: 1024, numGpu: 0, keepAlive: { wire: 600, ms: 600_000 } });
    await provider.warm(MODEL, { numCtx: 2048 });
    await provider.complete({ model: MODEL, messages: user('hi'), options: { numCtx: 2048 } });
    const [load, chat] = chatRequests(server).map(bodyOf);
    expect(load.options).toEqual({ num_ctx: 2048, num_batch: 1024, num_gpu: 0 });
    expect(chat.options).toMatchObject({ num_ctx: 2048, num_batch: 1024, num_gpu: 0 });
    expect([load.keep_alive, chat.keep_alive]).toEqual([600, 600]);
  });

  it('keys the load cache on (model, options): the same warm-up is sent once, other options again', async () => {
    const { server, provider } = await setup();
    await provider.warm(MODEL, { numCtx: 4096 });
    await provider.warm(MODEL, { numCtx: 4096 });
    await provider.warm(MODEL, { numCtx: 8192 });
    expect(chatRequests(server).map((r) => bodyOf(r).options)).toEqual([{ num_ctx: 4096 }, { num_ctx: 8192 }]);
  });
});

describe('model_reloaded', () => {
  it('is emitted with cause options_changed when Loupe sends another num_ctx to a warm model (needs the stand-in to reload)', async () => {
    const { provider } = await setup();
    await provider.warm(MODEL, { numCtx: 4096 });
    const events = eventRecorder();
    const result = await provider.complete({ model: MODEL, messages: user('hi'), options: { numCtx: 2048 }, onEvent: events.sink });
    expect(result.timings.loadMs).toBeGreaterThanOrEqual(100);
    expect(events.of('model_reloaded')).toEqual([
      expect.objectContaining({
        model: MODEL,
        cause: 'options_changed',
        previous: { numCtx: 4096 },
        next: { numCtx: 2048 },
        measured: true,
        keepAliveMs: 1_800_000,
      }),
    ]);
    // /api/ps read again after the reload: the guard judges against the new runner's context
    expect(result.prompt).toMatchObject({ contextLength: 2048, contextSource: 'loaded' });
  });

  it('is not emitted for the cold first load of a model the provider never loaded', async () => {
    const { provider } = await setup();
    const events = eventRecorder();
    const result = await provider.complete({ model: MODEL, messages: user('hi'), options: { numCtx: 4096 }, onEvent: events.sink });
    expect(result.timings.loadMs).toBeGreaterThanOrEqual(100);
    expect(events.of('model_reloaded')).toEqual([]);
  });

  it('says measured: false for a call outside a measured turn', async () => {
    const { provider } = await setup();
    await provider.warm(MODEL, { numCtx: 4096 });
    const events = eventRecorder();
    await provider.complete({ model: MODEL, messages: user('hi'), options: { numCtx: 2048 }, onEvent: events.sink, measured: false });
    expect(events.of('model_reloaded')).toEqual([expect.objectContaining({ measured: false })]);
  });
});

describe('think from /api/show capabilities', () => {
  it('a local thinking model gets think:false, gpt-oss a level, a model without the capability nothing', async () => {
    const { server, url } = await startStandin({
      catalog: [
        localModel('magistral:24b', { family: 'mistral3', capabilities: ['completion', 'tools', 'thinking'] }),
        localModel('gpt-oss:20b', { family: 'gptoss', capabilities: ['completion', 'tools', 'thinking'] }),
        localModel('llama3.2:3b'),
      ],
      script: { turns: { '*': [{ content: 'ok' }] }, loop: true },
    });
    const { provider } = makeProvider(url, { thinkLevel: 'medium' });
    for (const model of ['magistral:24b', 'gpt-oss:20b', 'llama3.2:3b']) await provider.complete({ model, messages: user('hi') });
    const think = chatRequests(server).map((r) => [r.model, 'think' in bodyOf(r) ? bodyOf(r).think : 'absent']);
    expect(think).toEqual([
      ['magistral:24b', false],
      ['gpt-oss:20b', 'medium'],
      ['llama3.2:3b', 'absent'],
    ]);
  });
});
