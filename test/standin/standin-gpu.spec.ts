// GPU simulation: the per-model FIFO semaphore, maxQueue, model loading and /api/ps. Ordering
// is checked from the server's request log timestamps, never from wall-clock bounds on the test.
import { Ollama } from 'ollama';

import type { StandinModel } from '../../src/standin/standin-script';
import type { StandinRequestRecord } from '../../src/standin/standin-request-log';
import { post, rejection, responseError, startStandin, stopAll, until, userMessage } from './standin-test-kit';

afterEach(stopAll);

const gpuModel = (extra: Partial<StandinModel> = {}): StandinModel => ({
  name: 'gpu:1',
  family: 'llama',
  parameterSize: '8.0B',
  quantization: 'Q4_K_M',
  capabilities: ['completion', 'tools'],
  vramBytes: 5_000_000_000,
  sizeBytes: 4_000_000_000,
  ...extra,
});
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const chat = (url: string, extra: Record<string, unknown> = {}) =>
  post(url, '/api/chat', { model: 'gpu:1', messages: userMessage('x'), stream: false, ...extra });

/** Sends requests one after another, each only once the previous one is in the log, so arrival order is fixed. */
async function sendInOrder(url: string, count: number, logged: () => number): Promise<Promise<Response>[]> {
  const responses: Promise<Response>[] = [];
  for (let i = 0; i < count; i++) {
    const before = logged();
    responses.push(chat(url));
    await until(() => logged() > before);
  }
  return responses;
}

function maxOverlap(records: readonly StandinRequestRecord[]): number {
  return Math.max(
    ...records.map((r) => records.filter((o) => o.slotAcquiredAt! <= r.slotAcquiredAt! && r.slotAcquiredAt! < o.slotReleasedAt!).length),
  );
}

describe('parallel slots', () => {
  it('with parallel=2 and 4 concurrent requests, at most 2 generate at once and the rest wait in FIFO order', async () => {
    const { url, server } = await startStandin({
      catalog: [gpuModel({ parallel: 2, tokensPerSecond: 50 })],
      script: { turns: { '*': [{ content: words(8) }] }, loop: true },
    });
    await chat(url, { messages: [] }); // load first, so only slots are contended
    const responses = await sendInOrder(url, 4, () => server.requests.length - 1);
    const bodies = await Promise.all((await Promise.all(responses)).map((r) => r.json()));
    expect(bodies.map((b) => (b as { message: { content: string } }).message.content)).toEqual(Array(4).fill(words(8)));
    await server.settled();
    const generated = server.requests.slice(1);
    expect(generated.every((r) => r.slotAcquiredAt !== undefined && r.slotReleasedAt !== undefined)).toBe(true);
    expect(maxOverlap(generated)).toBe(2);
    // FIFO: slots were granted in arrival order
    const acquired = generated.map((r) => r.slotAcquiredAt!);
    expect(acquired).toEqual([...acquired].sort((a, b) => a - b));
    expect(generated.map((r) => r.queued)).toEqual([false, false, true, true]);
    // the waiters only started once an earlier request released its slot
    const firstRelease = Math.min(generated[0].slotReleasedAt!, generated[1].slotReleasedAt!);
    expect(generated[2].slotAcquiredAt!).toBeGreaterThanOrEqual(firstRelease);
  });

  it('waiting requests get no headers until their slot frees', async () => {
    const { url, server } = await startStandin({
      catalog: [gpuModel({ parallel: 1, tokensPerSecond: 200 })],
      script: { turns: { '*': [{ content: words(6) }] }, loop: true },
    });
    await chat(url, { messages: [] });
    const [a, b] = await sendInOrder(url, 2, () => server.requests.filter((r) => r.path === '/api/chat').length - 1);
    await Promise.all([a, b]);
    const [ra, rb] = server.requests.slice(1);
    expect(rb.firstByteAt!).toBeGreaterThanOrEqual(ra.slotReleasedAt!);
    expect(rb.slotAcquiredAt!).toBeGreaterThanOrEqual(ra.slotReleasedAt!);
  });
});

describe('maxQueue', () => {
  it('bounds only the requests queued for a load: past it, 503 with the exact Ollama text', async () => {
    const { url, server, client } = await startStandin({
      maxQueue: 1,
      catalog: [gpuModel({ loadMs: 60_000 })],
      script: { turns: { '*': [{ content: words(10) }] }, loop: true },
    });
    const controller = new AbortController();
    const aborting = { signal: controller.signal };
    const loading = post(url, '/api/chat', { model: 'gpu:1', messages: userMessage('x'), stream: false }, aborting).catch(() => undefined);
    await until(() => server.waiting === 1);
    const queued = post(url, '/api/chat', { model: 'gpu:1', messages: userMessage('x'), stream: false }, aborting).catch(() => undefined);
    await until(() => server.pendingLoads === 1);
    const err = responseError(await rejection(client.chat({ model: 'gpu:1', messages: userMessage('x') })));
    expect(err).toEqual({ status: 503, message: 'server busy, please try again.  maximum pending requests exceeded' });
    controller.abort();
    await Promise.all([loading, queued]);
  });
});

describe('model loading', () => {
  it('loadMs is paid once and reported in load_duration; /api/ps then shows the model', async () => {
    const { client, server } = await startStandin({
      catalog: [gpuModel({ loadMs: 60 })],
      script: { turns: { '*': [{ content: 'hi' }] }, loop: true },
    });
    expect((await client.ps()).models).toEqual([]);
    const first = await client.chat({ model: 'gpu:1', messages: userMessage('x') });
    const second = await client.chat({ model: 'gpu:1', messages: userMessage('x') });
    expect(first.load_duration).toBeGreaterThanOrEqual(59_000_000);
    expect(second.load_duration).toBeLessThan(first.load_duration);
    expect(server.requests.filter((r) => r.path === '/api/chat').map((r) => r.queued)).toEqual([true, false]);
    const { models } = await client.ps();
    expect(models).toHaveLength(1);
    expect(models[0]).toMatchObject({ name: 'gpu:1', size_vram: 5_000_000_000, size: 5_000_000_000 });
    expect(models[0].details).toMatchObject({ family: 'llama', parameter_size: '8.0B' });
  });

  it('concurrent first requests share one load', async () => {
    const { client, server } = await startStandin({
      catalog: [gpuModel({ loadMs: 50, parallel: 2 })],
      script: { turns: { '*': [{ content: 'hi' }] }, loop: true },
    });
    await Promise.all([0, 1].map(() => client.chat({ model: 'gpu:1', messages: userMessage('x') })));
    const [a, b] = server.requests;
    expect(Math.abs(a.loadedAt! - b.loadedAt!)).toBeLessThan(40);
  });
});

describe('client disconnect while queued', () => {
  it('leaves the queue, is logged as cancelled, and hands its turn to the next request', async () => {
    const { url, server } = await startStandin({
      // A generates for ~2 s: ample time for the client's abort to reach the server while B waits, even
      // after a stall (the stand-in paces against the clock and catches up, so a short A could finish first)
      catalog: [gpuModel({ parallel: 1, tokensPerSecond: 8 })],
      script: { turns: { '*': [{ content: words(8) }, { content: 'second' }, { content: 'third' }] } },
    });
    await chat(url, { messages: [] });
    const a = chat(url);
    await until(() => server.requests[1]?.slotAcquiredAt !== undefined);
    const controller = new AbortController();
    const quitter = new Ollama({ host: url, fetch: (input, init) => fetch(input, { ...init, signal: controller.signal }) });
    const b = quitter.chat({ model: 'gpu:1', messages: userMessage('x'), stream: true });
    await until(() => server.waiting === 1);
    controller.abort();
    expect(((await rejection(b)) as Error).name).toBe('AbortError');
    await server.waitForRequests((rs) => rs[2]?.cancelled === true);
    expect(server.requests[1].slotReleasedAt).toBeUndefined(); // B really left while A still generated
    await until(() => server.waiting === 0);
    const c = await chat(url);
    expect(((await c.json()) as { message: { content: string } }).message.content).toBe('second');
    expect(((await (await a).json()) as { message: { content: string } }).message.content).toBe(words(8));
    const rb = server.requests[2];
    expect(rb.slotAcquiredAt).toBeUndefined();
    expect(rb.status).toBeUndefined();
  });
});
