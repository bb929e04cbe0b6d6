// The streamed /api/chat call and its time budgets, with the stand-in withholding headers,
// stalling, pacing tokens and sending broken lines; cancellations are checked in the stand-in's
// log (it sees the client go away), never by timing.
// Spec: invariants 7 (stream idle timeout) and 11 (request timeout, combined with the caller's
// signal); error cases stream idle timeout, request timeout, malformed stream data.
// covers: ollama-provider#invariant-7, ollama-provider#invariant-11, ollama-provider#error-stream-idle-timeout-2-min-no-data
// covers: ollama-provider#error-request-timeout-30-min, ollama-provider#error-malformed-stream-data, mcp-agent-technical-spec#error-response-truncation
import type { StandinModel, StandinTurn } from '../../src/standin/standin-script';
import { chatRequests, cleanup, eventRecorder, localModel, makeProvider, providerError, startStandin, user } from './provider-test-kit';

afterEach(cleanup);

const MODEL = 'llama3.1:8b';
const REPLY = 'alpha beta gamma delta';
const LONG = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
// LONG streams for ~8 s at this rate, and the cases that use it cancel after a few deltas: the stand-in
// paces against the clock and catches up after a stall, so a shorter reply could finish before the
// cancel on a loaded machine (as one in the stand-in's own cancel spec did at 300 ms)
const SLOW_RATE = 10;

async function standin(turns: StandinTurn[], catalog?: StandinModel[]) {
  const model = catalog?.[0].name ?? MODEL;
  const { server, url } = await startStandin({ catalog, script: { turns: { [model]: turns } } });
  return { server, url, model };
}

describe('first-byte timeout (headers withheld while the model loads or queues)', () => {
  it('aborts a request whose headers do not come in time — the server sees it cancelled — and the retry gets the reply', async () => {
    const { server, url } = await standin([{ content: REPLY, fault: { kind: 'delay_first_byte', ms: 30_000 } }]);
    const { provider } = makeProvider(url, { firstByteTimeoutMs: 100, random: () => 0 });
    const events = eventRecorder();
    const result = await provider.complete({ model: MODEL, messages: user('x'), onEvent: events.sink });
    expect(result.content).toBe(REPLY);
    expect(events.of('inference_retry')).toEqual([
      expect.objectContaining({
        attempt: 1,
        kind: 'timeout_first_byte',
        message: expect.stringContaining('no response headers from Ollama for 100 ms'),
      }),
    ]);
    await server.settled();
    const [first, second] = chatRequests(server);
    expect(first).toMatchObject({ fault: 'delay_first_byte', cancelled: true, chunks: 0, generation: 'cancelled' });
    expect(first.status).toBeUndefined(); // no headers ever went out
    expect(second).toMatchObject({ status: 200, cancelled: false, generation: 'completed' });
  });

  it('gives up after the retries when the server never answers in time', async () => {
    const { server, url } = await standin([{ content: REPLY, fault: { kind: 'delay_first_byte', ms: 30_000, times: 10 } }]);
    const { provider } = makeProvider(url, { firstByteTimeoutMs: 50 });
    const error = await providerError(provider.complete({ model: MODEL, messages: user('x') }));
    expect(error.info.kind).toBe('timeout_first_byte');
    await server.settled();
    expect(chatRequests(server).map((r) => r.cancelled)).toEqual([true, true, true, true]);
  });
});

describe('caller abort (AbortSignal)', () => {
  it('before the headers arrive: the request is really cancelled on the server, not retried', async () => {
    const { server, url } = await standin([{ content: REPLY, fault: { kind: 'delay_first_byte', ms: 30_000 } }]);
    const { provider } = makeProvider(url);
    const controller = new AbortController();
    const events = eventRecorder();
    const pending = providerError(
      provider.complete({ model: MODEL, messages: user('x'), signal: controller.signal, onEvent: events.sink }),
    );
    // the server holds the request (slot taken, headers withheld)
    await server.waitForRequests(() => chatRequests(server)[0]?.slotAcquiredAt !== undefined);
    expect(chatRequests(server)[0].firstByteAt).toBeUndefined();
    controller.abort();
    const error = await pending;
    expect(error.info).toMatchObject({ kind: 'aborted', retryable: false });
    await server.settled();
    expect(chatRequests(server)[0]).toMatchObject({ cancelled: true, generation: 'cancelled' });
    expect(chatRequests(server)[0].status).toBeUndefined();
    expect(chatRequests(server)).toHaveLength(1);
    expect(events.of('inference_retry')).toEqual([]);
  });

  it('mid-stream: generation stops on the server after the chunks already sent', async () => {
    const slow = localModel('slow:1b', { tokensPerSecond: SLOW_RATE });
    const { server, url, model } = await standin([{ content: LONG }], [slow]);
    const { provider } = makeProvider(url);
    const controller = new AbortController();
    const deltas: string[] = [];
    const error = await providerError(
      provider.complete({
        model,
        messages: user('x'),
        signal: controller.signal,
        onDelta: (d) => {
          if (d.content) deltas.push(d.content);
          if (deltas.length === 3) controller.abort();
        },
      }),
    );
    expect(error.info.kind).toBe('aborted');
    await server.settled();
    const [record] = chatRequests(server);
    expect(record).toMatchObject({ status: 200, cancelled: true, generation: 'cancelled' });
    expect(record.chunks).toBeLessThan(41); // 40 words + the done chunk were never all written
    expect(chatRequests(server)).toHaveLength(1);
  });

  it('leaving the stream early for any other reason (a throwing onDelta) also cancels the HTTP request', async () => {
    const slow = localModel('slow:1b', { tokensPerSecond: SLOW_RATE });
    const { server, url, model } = await standin([{ content: LONG }], [slow]);
    const { provider } = makeProvider(url);
    const error = await provider
      .complete({
        model,
        messages: user('x'),
        onDelta: () => {
          throw new Error('consumer failed');
        },
      })
      .then(
        () => undefined,
        (e: Error) => e,
      );
    // the caller's own exception, as it was: not a stream error, so not retried
    expect(error?.message).toBe('consumer failed');
    expect(error?.name).toBe('Error');
    await server.settled();
    expect(chatRequests(server)).toHaveLength(1);
    expect(chatRequests(server)[0]).toMatchObject({ cancelled: true, generation: 'cancelled' });
    expect(chatRequests(server)[0].chunks).toBeLessThan(41);
  });

  it('an already-aborted signal sends nothing to /api/chat', async () => {
    const { server, url } = await standin([{ content: REPLY }]);
    const { provider } = makeProvider(url);
    const error = await providerError(provider.complete({ model: MODEL, messages: user('x'), signal: AbortSignal.abort() }));
    expect(error.info.kind).toBe('aborted');
    await server.settled();
    expect(chatRequests(server)).toHaveLength(0);
    expect(server.served(MODEL)).toBe(0);
  });
});

describe('stream idle timeout (invariant 7; error case)', () => {
  it('a stream that stops sending is aborted with a diagnostic error, the server sees the cancel, and the retry completes', async () => {
    const { server, url } = await standin([{ content: REPLY, fault: { kind: 'stall', afterChunks: 2, ms: 30_000 } }]);
    const { provider } = makeProvider(url, { idleTimeoutMs: 100 });
    const events = eventRecorder();
    const result = await provider.complete({ model: MODEL, messages: user('x'), onEvent: events.sink });
    expect(result.content).toBe(REPLY);
    expect(events.of('inference_retry')).toEqual([
      expect.objectContaining({
        kind: 'timeout_idle',
        message: `Stream aborted: no stream data from Ollama for 100 ms (model ${MODEL}, after 2 chunks)`,
      }),
    ]);
    await server.waitForRequests(() => chatRequests(server)[0].cancelled);
    expect(chatRequests(server)[0]).toMatchObject({ fault: 'stall', chunks: 2, cancelled: true });
  });

  it('a slow but steady stream is not idle: each chunk re-arms the timer', async () => {
    // 25 chunks 40 ms apart under a 400 ms idle budget: ~1 s in all, but never 400 ms silent
    const steady = localModel('steady:1b', { tokensPerSecond: 25 });
    const { server, url, model } = await standin([{ content: Array.from({ length: 25 }, (_, i) => `t${i}`).join(' ') }], [steady]);
    const { provider } = makeProvider(url, { idleTimeoutMs: 400 });
    const events = eventRecorder();
    const result = await provider.complete({ model, messages: user('x'), onEvent: events.sink });
    expect(result.content.split(' ')).toHaveLength(25);
    expect(events.of('inference_retry')).toEqual([]);
    expect(chatRequests(server)).toHaveLength(1);
  });
});

describe('request timeout (invariant 11; error case)', () => {
  it('ends a completion that is still streaming, is not retried, and the server sees the cancel', async () => {
    const slow = localModel('slow:1b', { tokensPerSecond: 20 });
    const { server, url, model } = await standin([{ content: LONG }], [slow]);
    const { provider } = makeProvider(url, { requestTimeoutMs: 200, idleTimeoutMs: 5_000 });
    const events = eventRecorder();
    const error = await providerError(provider.complete({ model, messages: user('x'), onEvent: events.sink }));
    expect(error.info).toMatchObject({ kind: 'timeout_request', retryable: false });
    expect(error.message).toContain('request still running for 200 ms');
    expect(events.of('inference_retry')).toEqual([]);
    await server.waitForRequests(() => chatRequests(server)[0].cancelled);
    expect(chatRequests(server)).toHaveLength(1);
    expect(chatRequests(server)[0].chunks).toBeGreaterThan(0); // it was streaming, not waiting for headers
  });

  it("the caller's own signal is combined with the request timeout: a caller deadline (AbortSignal.timeout) ends it first", async () => {
    const slow = localModel('slow:1b', { tokensPerSecond: 20 });
    const { server, url, model } = await standin([{ content: LONG }, { content: LONG }], [slow]);
    const { provider } = makeProvider(url, { requestTimeoutMs: 60_000 });
    const callerTimeout = await providerError(provider.complete({ model, messages: user('x'), signal: AbortSignal.timeout(150) }));
    // AbortSignal.timeout is the caller's own deadline: a timeout, never retried
    expect(callerTimeout.info).toMatchObject({ kind: 'timeout_request', retryable: false });
    await server.settled();
    expect(chatRequests(server)).toHaveLength(1);
    expect(chatRequests(server)[0].cancelled).toBe(true);
  });
});

describe('malformed stream data (error case)', () => {
  it('skips the broken line, reports it, and keeps processing the stream', async () => {
    const { server, url } = await standin([{ content: REPLY, fault: { kind: 'malformed_line', afterChunks: 2 } }]);
    const { provider } = makeProvider(url);
    const events = eventRecorder();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const result = await provider.complete({ model: MODEL, messages: user('x'), onEvent: events.sink });
      expect(result.content).toBe(REPLY);
      expect(result.finishReason).toBe('stop');
      expect(result.usage.outputTokens).toBe(4);
      // skipped by the provider itself, not left to ollama-js's console.warn
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
    expect(events.of('stream_malformed_line')).toEqual([
      { skipped: true, line: expect.stringContaining('"message":{"role":"assistant","content":') },
    ]);
    expect(events.of('inference_retry')).toEqual([]);
    expect(chatRequests(server)).toHaveLength(1);
  });

  it('an onEvent that throws while a malformed line is reported propagates as is, without a retry', async () => {
    const { server, url } = await standin([{ content: REPLY, fault: { kind: 'malformed_line', afterChunks: 1 } }]);
    const { provider } = makeProvider(url);
    const error = await provider
      .complete({
        model: MODEL,
        messages: user('x'),
        onEvent: (type) => {
          if (type === 'stream_malformed_line') throw new Error('journal down');
        },
      })
      .then(
        () => undefined,
        (e: Error) => e,
      );
    expect(error?.message).toBe('journal down');
    await server.settled();
    expect(chatRequests(server)).toHaveLength(1);
  });

  it.each([['null'], ['42'], ['[1,2]'], ['"text"']])(
    'a line holding valid JSON that is not an object (%s) is skipped the same way',
    async (line) => {
      const { url } = await standin([{ content: REPLY, fault: { kind: 'malformed_line', afterChunks: 1, line } }]);
      const { provider } = makeProvider(url);
      const events = eventRecorder();
      const result = await provider.complete({ model: MODEL, messages: user('x'), onEvent: events.sink });
      expect(result.content).toBe(REPLY);
      expect(events.of('stream_malformed_line')).toEqual([{ skipped: true, line }]);
    },
  );
});

describe('a normal streamed completion', () => {
  it("joins the deltas, reports usage and the server's timing split", async () => {
    const { url } = await standin([{ content: REPLY, promptEvalCount: 12, evalCount: 4 }]);
    const { provider } = makeProvider(url);
    const deltas: string[] = [];
    const result = await provider.complete({
      model: MODEL,
      messages: user('x'),
      onDelta: (d) => d.content && deltas.push(d.content),
      options: { numCtx: 4096, numPredict: 64, temperature: 0 },
    });
    expect(deltas).toEqual(['alpha', ' beta', ' gamma', ' delta']);
    expect(result).toMatchObject({
      model: MODEL,
      content: REPLY,
      finishReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 4 },
      toolCalls: [],
      toolCallSource: 'none',
    });
    expect(result.timings.totalMs).toBeGreaterThan(0);
    expect(result.timings.wallMs).toBeGreaterThan(0);
    expect(result.timings.firstChunkMs).toBeDefined();
  });

  it("sends the request's own num_ctx / num_predict / temperature, and the configured num_predict otherwise", async () => {
    const { server, url } = await standin([{ content: 'a' }, { content: 'b' }]);
    const { provider } = makeProvider(url, { numPredict: 256 });
    await provider.complete({ model: MODEL, messages: user('x'), options: { numCtx: 4096, numPredict: 64, temperature: 0 } });
    await provider.complete({ model: MODEL, messages: user('y') });
    const [first, second] = chatRequests(server).map((r) => r.body as { options: Record<string, unknown>; stream: boolean });
    expect(first.options).toMatchObject({ num_ctx: 4096, num_predict: 64, temperature: 0 });
    expect(second.options).toMatchObject({ num_predict: 256 });
    expect(second.options).not.toHaveProperty('num_ctx');
    expect(first.stream).toBe(true);
  });
});
