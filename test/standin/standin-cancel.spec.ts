// Client-side cancellation mid-stream: the stand-in notices the disconnect, stops producing
// chunks, frees the slot and logs the request as cancelled.
import type { ChatResponse } from 'ollama';

import type { StandinModel } from '../../src/standin/standin-script';
import { rejection, startStandin, stopAll, userMessage } from './standin-test-kit';

afterEach(stopAll);

// 30 words of two tokens each ("word", "7") at 20 tokens/s: ~3 s of streaming, long enough to cancel in the
// middle. The stand-in paces against the clock and catches up after a stall, so at 200 tokens/s (300 ms)
// a jest worker stalled that long on a loaded machine saw the reply complete before its abort (CI, 3 workers).
const slow: StandinModel = {
  name: 'slow:1',
  family: 'llama',
  parameterSize: '1B',
  capabilities: ['completion', 'tools'],
  tokensPerSecond: 20,
};
const LONG = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
const script = { turns: { '*': [{ content: LONG }, { content: 'next turn' }] } };

describe('client abort mid-stream', () => {
  it('iterator.abort() stops generation; the request is logged as cancelled and its slot freed', async () => {
    const { client, server } = await startStandin({ catalog: [slow], script });
    const it = await client.chat({ model: 'slow:1', messages: userMessage('x'), stream: true });
    const received: ChatResponse[] = [];
    const err = await rejection(
      (async () => {
        for await (const chunk of it) {
          received.push(chunk);
          if (received.length === 3) it.abort();
        }
      })(),
    );
    expect((err as Error).name).toBe('AbortError');
    await server.waitForRequests((rs) => rs[0]?.cancelled === true);
    await server.settled();
    const record = server.requests[0];
    const chunksAtCancel = record.chunks;
    expect(record.chunks).toBeLessThan(61);
    expect(record.generation).toBe('cancelled'); // the generator itself stopped, not just the writes
    expect(record.cancelledAt).toBeGreaterThan(record.firstByteAt!);
    expect(record.slotReleasedAt).toBeDefined();
    expect(record.dropped).toBeUndefined();
    // the client never got the reply: the turn is still due, and the next request gets it whole
    expect((await client.chat({ model: 'slow:1', messages: userMessage('x') })).message.content).toMatch(/^word0 word1 .* word29$/);
    expect((await client.chat({ model: 'slow:1', messages: userMessage('x') })).message.content).toBe('next turn');
    // the same 61 tokens generated whole since, at the same pace: a generator still running would have written more
    expect(server.requests[1].generation).toBe('completed');
    expect(record.chunks).toBe(chunksAtCancel);
  });

  it('client.abort() cancels every streaming request that has an iterator', async () => {
    const { client, server } = await startStandin({
      catalog: [{ ...slow, parallel: 2 }],
      script: { turns: { '*': [{ content: LONG }] }, loop: true },
    });
    const its = await Promise.all([0, 1].map(() => client.chat({ model: 'slow:1', messages: userMessage('x'), stream: true })));
    const firsts = await Promise.all(its.map(async (it) => (await it[Symbol.asyncIterator]().next()).value as ChatResponse));
    expect(firsts.map((c) => c.message.content)).toEqual(['word', 'word']);
    client.abort();
    await server.waitForRequests((rs) => rs.length === 2 && rs.every((r) => r.cancelled));
    await server.settled();
    expect(server.requests.map((r) => r.generation)).toEqual(['cancelled', 'cancelled']);
  });

  it('leaving a for-await with break does not cancel: the server generates to the end', async () => {
    // ollama-js quirk (protocol reference §4.3): only abort() closes the connection
    const { client, server } = await startStandin({ catalog: [slow], script });
    for await (const chunk of await client.chat({ model: 'slow:1', messages: userMessage('x'), stream: true })) {
      if (chunk.message.content) break;
    }
    await server.settled();
    expect(server.requests[0]).toMatchObject({ cancelled: false, chunks: 61, generation: 'completed' });
  });

  it('a non-streaming request cancelled by its fetch signal is logged as cancelled', async () => {
    const { url, server } = await startStandin({ catalog: [slow], script });
    const controller = new AbortController();
    const pending = fetch(`${url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'slow:1', messages: userMessage('x'), stream: false }),
      signal: controller.signal,
    });
    await server.waitForRequests((rs) => rs[0]?.slotAcquiredAt !== undefined);
    controller.abort();
    expect(((await rejection(pending)) as Error).name).toBe('AbortError');
    await server.waitForRequests((rs) => rs[0].cancelled);
    await server.settled();
    expect(server.requests[0].status).toBeUndefined();
    expect(server.requests[0].generation).toBe('cancelled');
  });
});
