// Classified retries end to end: faults injected by the stand-in, the real ollama client's errors,
// the provider's retry events and the stand-in's request log (what was actually sent again).
// Backoffs run at retryDelayScale 0.01 (10 ms, 20 ms, 40 ms) and the jitter is pinned.
// Spec: invariant 12, behavioural example "Retry on transient error"; error cases unreachable,
// model not found (404), context too long; plus 429, OOM, dropped connection, stream errors.
// covers: ollama-provider#invariant-12, ollama-provider#error-ollama-unreachable-fetch-fails
// covers: ollama-provider#error-model-not-found-404, ollama-provider#error-context-too-long-error
import { ContextTooLongError } from '../../src/provider/provider-errors';
import { StandinServer } from '../../src/standin/standin-server';
import type { StandinFault, StandinModel } from '../../src/standin/standin-script';
import {
  chatRequests,
  cleanup,
  closedPort,
  eventRecorder,
  localModel,
  makeProvider,
  providerError,
  requestsTo,
  startStandin,
  user,
} from './provider-test-kit';

afterEach(cleanup);

const MODEL = 'llama3.1:8b';
const REPLY = 'alpha beta gamma delta';

async function withFault(fault: StandinFault, overrides: Parameters<typeof makeProvider>[1] = {}) {
  const { server, url } = await startStandin({ script: { turns: { [MODEL]: [{ content: REPLY, fault }, { content: 'second turn' }] } } });
  const t = makeProvider(url, { random: () => 0, ...overrides });
  const events = eventRecorder();
  const complete = () => t.provider.complete({ model: MODEL, messages: user('x'), onEvent: events.sink });
  return { server, url, ...t, events, complete };
}

const retries = (events: ReturnType<typeof eventRecorder>) => events.of('inference_retry');

describe('retry on transient error (spec example; invariant 12)', () => {
  it('503: retried after 1 s (+ jitter, scaled), then the real reply', async () => {
    const { server, events, complete } = await withFault({ kind: 'http', status: 503 });
    const result = await complete();
    expect(result.content).toBe(REPLY);
    expect(retries(events)).toEqual([
      {
        attempt: 1,
        schedule: 'loupe',
        delayMs: 10,
        kind: 'server_busy',
        status: 503,
        retryAfterMs: null,
        message: expect.stringContaining('server busy'),
      },
    ]);
    const chats = chatRequests(server);
    expect(chats.map((r) => r.status)).toEqual([503, 200]);
    // the pause really happened (a lower bound: timers never fire early by more than clock rounding)
    expect(chats[1].receivedAt - chats[0].finishedAt!).toBeGreaterThanOrEqual(9);
  });

  it('up to 3 retries with exponential backoff (1 s, 2 s, 4 s), then fails with the last error', async () => {
    const { server, events, complete } = await withFault({ kind: 'http', status: 503, times: 10 });
    const error = await providerError(complete());
    expect(error.info).toMatchObject({ kind: 'server_busy', status: 503, retryable: true });
    expect(chatRequests(server)).toHaveLength(4);
    expect(retries(events)).toEqual([
      expect.objectContaining({ attempt: 1, delayMs: 10 }),
      expect.objectContaining({ attempt: 2, delayMs: 20 }),
      expect.objectContaining({ attempt: 3, delayMs: 40 }),
      expect.objectContaining({ attempt: 4, giveUp: true, reason: 'exhausted', kind: 'server_busy', status: 503 }),
    ]);
  });

  it('jitter adds up to 500 ms to each step', async () => {
    const { events, complete } = await withFault({ kind: 'http', status: 503, times: 3 }, { random: () => 0.999999 });
    await complete();
    expect(retries(events).map((e) => e.delayMs)).toEqual([15, 25, 45]);
  });

  it('Retry-After longer than the backoff is honoured', async () => {
    const { server, events, complete } = await withFault({ kind: 'http', status: 503, retryAfterSeconds: 3 });
    expect((await complete()).content).toBe(REPLY);
    expect(retries(events)).toEqual([expect.objectContaining({ attempt: 1, retryAfterMs: 3000, delayMs: 30 })]);
    const chats = chatRequests(server);
    expect(chats[1].receivedAt - chats[0].finishedAt!).toBeGreaterThanOrEqual(29);
  });

  it('a Retry-After beyond 60 s fails fast instead of stalling the loop', async () => {
    const { server, events, complete } = await withFault({ kind: 'http', status: 503, retryAfterSeconds: 3600 });
    expect((await providerError(complete())).info).toMatchObject({ kind: 'server_busy', retryAfterMs: 3_600_000 });
    expect(chatRequests(server)).toHaveLength(1);
    expect(retries(events)).toEqual([expect.objectContaining({ attempt: 1, giveUp: true, reason: 'retry_after_too_long' })]);
  });

  it.each([
    [
      '429 rate limit',
      { kind: 'http', status: 429, retryAfterSeconds: 2 } as StandinFault,
      { kind: 'rate_limited', status: 429, retryAfterMs: 2000 },
    ],
    [
      '500 out of memory',
      { kind: 'http', status: 500, error: 'model requires more system memory (9.1 GiB) than is available (4.0 GiB)' } as StandinFault,
      { kind: 'out_of_memory', status: 500 },
    ],
    ['500 runner crash', { kind: 'http', status: 500 } as StandinFault, { kind: 'server_error', status: 500 }],
    ['connection dropped before any byte', { kind: 'disconnect', afterChunks: 0 } as StandinFault, { kind: 'connection' }],
    ['dropped connection mid-stream', { kind: 'disconnect', afterChunks: 2 } as StandinFault, { kind: 'stream_error' }],
    [
      '{"error"} line mid-stream',
      { kind: 'error_line', afterChunks: 2, error: 'an error was encountered while running the model' } as StandinFault,
      { kind: 'stream_error', message: 'an error was encountered while running the model' },
    ],
    [
      'runner error before the first chunk (a real 500)',
      { kind: 'error_line', afterChunks: 0, error: 'an error was encountered while running the model' } as StandinFault,
      { kind: 'server_error', status: 500 },
    ],
  ])('%s: retried once, then the real reply', async (_name, fault, expected) => {
    const { server, events, complete } = await withFault(fault);
    const result = await complete();
    expect(result.content).toBe(REPLY);
    expect(retries(events)).toEqual([expect.objectContaining({ attempt: 1, ...expected })]);
    expect(chatRequests(server)).toHaveLength(2);
    expect(chatRequests(server)[0].fault).toBe(fault.kind);
  });

  it('deltas of a failed attempt are not part of the result', async () => {
    const { server, url } = await startStandin({
      script: { turns: { [MODEL]: [{ content: REPLY, fault: { kind: 'disconnect', afterChunks: 2 } }] } },
    });
    const { provider } = makeProvider(url);
    const events = eventRecorder();
    const deltas: string[] = [];
    const result = await provider.complete({
      model: MODEL,
      messages: user('x'),
      onEvent: events.sink,
      onDelta: (d) => d.content && deltas.push(d.content),
    });
    expect(chatRequests(server)[0].dropped).toBe(true);
    expect(result.content).toBe(REPLY);
    // the caller saw the partial attempt, then the retry event, then the full reply again
    expect(deltas.join('')).toBe(`alpha beta${REPLY}`);
    expect(retries(events)).toHaveLength(1);
  });

  it('a real queue overflow (Ollama\'s 503 "maximum pending requests") is retried until the server has room', async () => {
    // only requests waiting for a load count against Ollama's queue (slot waits are unbounded): the
    // three arrive while the model is not loaded, so the ones past the queue's one place get the 503
    const slow: StandinModel = localModel('busy:1b', { tokensPerSecond: 20, parallel: 1, loadMs: 200 });
    const { server, url } = await startStandin({
      catalog: [slow],
      maxQueue: 1,
      script: { turns: { '*': [{ content: 'one two three four five six seven eight' }] }, loop: true },
    });
    // no client-side limiting (maxParallel above the server's capacity): the server has to push back
    const { provider } = makeProvider(url, { maxParallel: 8, retryDelayScale: 0.3, random: () => 0 });
    const events = eventRecorder();
    const results = await Promise.all(
      [1, 2, 3].map((i) => provider.complete({ model: 'busy:1b', messages: user(`r${i}`), onEvent: events.sink })),
    );
    expect(results.map((r) => r.content)).toEqual(Array(3).fill('one two three four five six seven eight'));
    const statuses = chatRequests(server).map((r) => r.status);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(1);
    expect(retries(events).length).toBe(statuses.filter((s) => s === 503).length);
    expect(retries(events)[0]).toMatchObject({
      kind: 'server_busy',
      status: 503,
      message: expect.stringContaining('maximum pending requests exceeded'),
    });
  });
});

describe('Ollama unreachable (spec error case)', () => {
  it('connection refused: isAvailable() is false and the completion fails with a connection error after 3 retries', async () => {
    const port = await closedPort();
    const { provider } = makeProvider(`http://127.0.0.1:${port}`, { random: () => 0 });
    expect(await provider.isAvailable()).toBe(false);
    const events = eventRecorder();
    const error = await providerError(provider.complete({ model: MODEL, messages: user('x'), onEvent: events.sink }));
    expect(error.info).toMatchObject({ kind: 'connection', retryable: true, code: 'ECONNREFUSED' });
    expect(retries(events).map((e) => [e.attempt, e.kind, e.giveUp ?? false])).toEqual([
      [1, 'connection', false],
      [2, 'connection', false],
      [3, 'connection', false],
      [4, 'connection', true],
    ]);
  });

  it('connection refused is transient: a server that comes up during the backoff gets the retry', async () => {
    const port = await closedPort();
    const server = new StandinServer({ script: { turns: { [MODEL]: [{ content: REPLY }] } } });
    const { provider } = makeProvider(`http://127.0.0.1:${port}`, { retryDelayScale: 0.1 });
    let starting: Promise<unknown> | undefined;
    try {
      const result = await provider.complete({
        model: MODEL,
        messages: user('x'),
        onEvent: (type) => {
          if (type === 'inference_retry') starting ??= server.start(port);
        },
      });
      expect(result.content).toBe(REPLY);
      expect(chatRequests(server)).toHaveLength(1);
      expect(await provider.isAvailable()).toBe(true);
    } finally {
      await starting;
      await server.stop();
    }
  });
});

describe('permanent errors are not retried (invariant 12; error cases)', () => {
  it('a model the host does not have: 404 from /api/show, no chat request at all', async () => {
    const { server, url } = await startStandin();
    const { provider } = makeProvider(url);
    const events = eventRecorder();
    const error = await providerError(provider.complete({ model: 'nope:7b', messages: user('x'), onEvent: events.sink }));
    expect(error.info).toMatchObject({ kind: 'model_not_found', retryable: false, status: 404 });
    expect(error.message).toContain("model 'nope:7b' not found");
    expect(requestsTo(server, '/api/show')).toHaveLength(1);
    expect(chatRequests(server)).toHaveLength(0);
    expect(retries(events)).toEqual([]);
  });

  it('404 model not found from /api/chat: one request, no retry', async () => {
    const { server, events, complete } = await withFault({ kind: 'http', status: 404 });
    expect((await providerError(complete())).info).toMatchObject({ kind: 'model_not_found', status: 404 });
    expect(chatRequests(server)).toHaveLength(1);
    expect(retries(events)).toEqual([]);
  });

  it('400 invalid request: one request, no retry', async () => {
    const { server, events, complete } = await withFault({ kind: 'http', status: 400, error: 'invalid think value: "maybe"' });
    expect((await providerError(complete())).info).toMatchObject({ kind: 'bad_request', status: 400, retryable: false });
    expect(chatRequests(server)).toHaveLength(1);
    expect(retries(events)).toEqual([]);
  });

  it.each([
    ['a 400 before streaming', { kind: 'http', status: 400, error: 'prompt is too long: 9000 tokens, num_ctx 8192' } as StandinFault],
    [
      'a {"error"} line mid-stream',
      { kind: 'error_line', afterChunks: 1, error: 'input length exceeds the maximum context length' } as StandinFault,
    ],
  ])('context too long (%s) surfaces as ContextTooLongError and is not retried', async (_name, fault) => {
    const { server, events, complete } = await withFault(fault);
    const error = await providerError(complete());
    expect(ContextTooLongError.isInstance(error)).toBe(true);
    expect(error.info).toMatchObject({ kind: 'context_too_long', retryable: false });
    expect(chatRequests(server)).toHaveLength(1);
    expect(retries(events)).toEqual([]);
  });
});

describe('abort during a retry backoff', () => {
  it('stops at once with an aborted ProviderError; nothing is sent again', async () => {
    const { server, provider } = await withFault({ kind: 'http', status: 503, times: 5 }, { retryDelayScale: 1 });
    const controller = new AbortController();
    const events = eventRecorder();
    const error = await providerError(
      provider.complete({
        model: MODEL,
        messages: user('x'),
        signal: controller.signal,
        onEvent: (type, payload) => {
          events.sink(type, payload);
          if (type === 'inference_retry') controller.abort();
        },
      }),
    );
    expect(error.info).toMatchObject({ kind: 'aborted', retryable: false });
    // unscaled, the first backoff is the spec's 1 s (jitter pinned to 0)
    expect(retries(events)).toEqual([expect.objectContaining({ attempt: 1, delayMs: 1000 })]);
    await server.settled();
    expect(chatRequests(server)).toHaveLength(1);
  });
});
