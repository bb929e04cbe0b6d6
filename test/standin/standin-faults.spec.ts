// Fault injection, seen from the real ollama client and from raw HTTP.
import { Ollama, type ChatResponse } from 'ollama';

import type { StandinFault } from '../../src/standin/standin-script';
import { SERVER_BUSY_ERROR } from '../../src/standin/standin-fault';
import { post, rawRequest, readLines, rejection, responseError, startStandin, stopAll, userMessage } from './standin-test-kit';

afterEach(stopAll);

const REPLY = 'alpha beta gamma delta';
const withFault = (fault: StandinFault) => ({ turns: { '*': [{ content: REPLY, fault }, { content: 'second turn' }] } });
const chatBody = (extra: Record<string, unknown> = {}) => JSON.stringify({ model: 'llama3.1:8b', messages: userMessage('x'), ...extra });

/** Streams through the client, keeping what arrived before any error. */
async function streamChunks(client: Ollama): Promise<{ chunks: ChatResponse[]; error?: unknown; at: number[] }> {
  const chunks: ChatResponse[] = [];
  const at: number[] = [];
  try {
    for await (const c of await client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), stream: true })) {
      chunks.push(c);
      at.push(performance.now());
    }
    return { chunks, at };
  } catch (error) {
    return { chunks, error, at };
  }
}

const contentOf = (chunks: ChatResponse[]) => chunks.map((c) => c.message.content).join('');

describe('http fault', () => {
  it('answers the status with an Ollama-shaped body and Retry-After, `times` times, then the real reply', async () => {
    const { url, client, server } = await startStandin({
      script: withFault({ kind: 'http', status: 503, retryAfterSeconds: 2, times: 2 }),
    });
    const raw = await post(url, '/api/chat', chatBody());
    expect(raw.status).toBe(503);
    expect(raw.headers.get('retry-after')).toBe('2');
    expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await raw.text()).toBe(`{"error":"${SERVER_BUSY_ERROR}"}`);
    expect(responseError(await rejection(client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), stream: true })))).toEqual({
      status: 503,
      message: 'server busy, please try again.  maximum pending requests exceeded',
    });
    expect((await client.chat({ model: 'llama3.1:8b', messages: userMessage('x') })).message.content).toBe(REPLY);
    expect((await client.chat({ model: 'llama3.1:8b', messages: userMessage('x') })).message.content).toBe('second turn');
    expect(server.requests.map((r) => [r.status, r.fault, r.turnIndex])).toEqual([
      [503, 'http', 0],
      [503, 'http', 0],
      [200, undefined, 0],
      [200, undefined, 1],
    ]);
  });

  it.each([
    [429, 'you have reached your hourly limit', 'you have reached your hourly limit'],
    [404, undefined, "model 'llama3.1:8b' not found"],
    [500, undefined, 'llama runner process has terminated: exit status 2'],
  ])('status %i', async (status, error, message) => {
    const { client, url } = await startStandin({ script: withFault({ kind: 'http', status, error }) });
    expect(responseError(await rejection(client.chat({ model: 'llama3.1:8b', messages: userMessage('x') })))).toEqual({ status, message });
    const retry = await post(url, '/api/chat', chatBody({ stream: false }));
    expect(retry.status).toBe(200);
    expect(retry.headers.get('retry-after')).toBeNull();
  });
});

describe('delay_first_byte', () => {
  it('withholds status and headers until the delay has passed', async () => {
    const { url, server } = await startStandin({ script: withFault({ kind: 'delay_first_byte', ms: 150 }) });
    const raw = await rawRequest(url, 'POST', '/api/chat', chatBody());
    expect(raw.headersAfterMs).toBeGreaterThanOrEqual(145);
    expect(raw.status).toBe(200);
    const record = server.requests[0];
    expect(record.fault).toBe('delay_first_byte');
    expect(record.firstByteAt! - record.slotAcquiredAt!).toBeGreaterThanOrEqual(148);
    // the delayed reply was delivered, so its turn is consumed: the next request gets the next turn, at once
    const again = await rawRequest(url, 'POST', '/api/chat', chatBody());
    expect(again.headersAfterMs).toBeLessThan(100);
    expect(again.body).not.toContain('"content":"alpha"');
    expect(again.body).toContain('"content":"second"');
  });

  it('a client time-to-first-byte timeout fires; the server logs the cancellation; the retry gets the reply', async () => {
    const { url, server, client } = await startStandin({ script: withFault({ kind: 'delay_first_byte', ms: 2000 }) });
    const impatient = new Ollama({
      host: url,
      fetch: (input, init) =>
        fetch(input, { ...init, signal: AbortSignal.any([init?.signal, AbortSignal.timeout(50)].filter((s): s is AbortSignal => !!s)) }),
    });
    const err = (await rejection(impatient.chat({ model: 'llama3.1:8b', messages: userMessage('x'), stream: true }))) as Error;
    expect(['TimeoutError', 'AbortError']).toContain(err.name);
    await server.waitForRequests((rs) => rs[0]?.cancelled === true);
    expect(server.requests[0].status).toBeUndefined();
    expect(server.requests[0].firstByteAt).toBeUndefined();
    expect((await client.chat({ model: 'llama3.1:8b', messages: userMessage('x') })).message.content).toBe(REPLY);
  });
});

describe('stall', () => {
  it('pauses mid-stream after N chunks, then finishes normally', async () => {
    const { client, server } = await startStandin({ script: withFault({ kind: 'stall', afterChunks: 1, ms: 120 }) });
    const { chunks, error, at } = await streamChunks(client);
    expect(error).toBeUndefined();
    expect(contentOf(chunks)).toBe(REPLY);
    expect(chunks[chunks.length - 1].done).toBe(true);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(100);
    expect(server.requests[0]).toMatchObject({ fault: 'stall', cancelled: false });
  });
});

describe('disconnect', () => {
  it('destroys the socket after N chunks: no done chunk, the client errors; the retry gets the reply', async () => {
    const { client, server } = await startStandin({ script: withFault({ kind: 'disconnect', afterChunks: 2 }) });
    const { chunks, error } = await streamChunks(client);
    expect(chunks.map((c) => c.message.content)).toEqual(['alpha', ' beta']);
    // undici reports the cut-off body as TypeError('terminated'), not a ResponseError
    expect([(error as Error).name, (error as Error).message]).toEqual(['TypeError', 'terminated']);
    await server.settled();
    expect(server.requests[0]).toMatchObject({
      fault: 'disconnect',
      dropped: true,
      cancelled: false,
      chunks: 2,
      status: 200,
      generation: 'dropped',
    });
    expect(contentOf((await streamChunks(client)).chunks)).toBe(REPLY);
  });

  it('afterChunks 0 drops the connection before any byte', async () => {
    const { client, server } = await startStandin({ script: withFault({ kind: 'disconnect', afterChunks: 0 }) });
    const err = (await rejection(client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), stream: true }))) as Error;
    expect(err.message).toBe('fetch failed');
    await server.settled();
    expect(server.requests[0].dropped).toBe(true);
    expect(server.requests[0].status).toBeUndefined();
  });

  it('stream:false: the connection drops without a response', async () => {
    const { url } = await startStandin({ script: withFault({ kind: 'disconnect', afterChunks: 0 }) });
    expect(((await rejection(post(url, '/api/chat', chatBody({ stream: false })))) as Error).message).toBe('fetch failed');
  });
});

describe('malformed_line', () => {
  it('writes a non-JSON line mid-stream; ollama-js warns and skips it; the stream completes and the turn is consumed', async () => {
    const { client, url } = await startStandin({
      script: {
        turns: {
          '*': [
            { content: REPLY, fault: { kind: 'malformed_line', afterChunks: 1, times: 2 } },
            { content: 'alpha', fault: { kind: 'malformed_line', afterChunks: 1 } },
          ],
        },
      },
    });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { chunks, error } = await streamChunks(client);
      expect(error).toBeUndefined();
      expect(contentOf(chunks)).toBe(REPLY);
      expect(warn).toHaveBeenCalledWith('invalid json: ', expect.stringMatching(/^\{"model":"llama3\.1:8b",.*"content":$/));
    } finally {
      warn.mockRestore();
    }
    // the delivered reply consumed the first turn (times: 2 does not replay it): the second request gets turn 2
    const lines = (await (await post(url, '/api/chat', chatBody())).text()).split('\n').filter(Boolean);
    expect(() => JSON.parse(lines[1])).toThrow();
    expect(JSON.parse(lines[0]).message.content).toBe('alpha');
    expect(JSON.parse(lines[lines.length - 1]).done).toBe(true);
  });

  it('a custom line is sent as given; stream:false sends it as the whole body', async () => {
    const { url, client } = await startStandin({
      script: { turns: { '*': [{ content: REPLY, fault: { kind: 'malformed_line', afterChunks: 0, line: 'garbage!' } }] } },
    });
    const err = (await rejection(client.chat({ model: 'llama3.1:8b', messages: userMessage('x') }))) as Error;
    expect(err.name).toBe('SyntaxError');
    expect((await post(url, '/api/chat', chatBody())).status).toBe(200);
  });
});

describe('error_line', () => {
  it('mid-stream: status stays 200, an {"error"} line, then the stream closes with no done chunk', async () => {
    const { url, client, server } = await startStandin({
      script: {
        turns: {
          '*': [
            {
              content: REPLY,
              fault: { kind: 'error_line', afterChunks: 2, error: 'an error was encountered while running the model', times: 2 },
            },
          ],
        },
      },
    });
    const res = await post(url, '/api/chat', chatBody());
    expect(res.status).toBe(200);
    const { objects } = await readLines(res);
    expect(objects).toHaveLength(3);
    expect(objects[2]).toEqual({ error: 'an error was encountered while running the model' });
    expect(objects.some((o) => o.done === true)).toBe(false);
    const { chunks, error } = await streamChunks(client);
    expect(chunks).toHaveLength(2);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('Error'); // a plain Error, not a ResponseError
    expect((error as Error).message).toBe('an error was encountered while running the model');
    await server.settled();
    expect(server.requests.map((r) => [r.fault, r.cancelled, r.status, r.generation])).toEqual([
      ['error_line', false, 200, 'error_line'],
      ['error_line', false, 200, 'error_line'],
    ]);
    expect(contentOf((await streamChunks(client)).chunks)).toBe(REPLY);
  });

  it('before any chunk (afterChunks 0) or with stream:false it becomes an HTTP 500', async () => {
    const { client } = await startStandin({
      script: { turns: { '*': [{ content: REPLY, fault: { kind: 'error_line', afterChunks: 0, error: 'boom', times: 2 } }] } },
    });
    expect(responseError(await rejection(client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), stream: true })))).toEqual({
      status: 500,
      message: 'boom',
    });
    expect(responseError(await rejection(client.chat({ model: 'llama3.1:8b', messages: userMessage('x') })))).toEqual({
      status: 500,
      message: 'boom',
    });
  });
});
