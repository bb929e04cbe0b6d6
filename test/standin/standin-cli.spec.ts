// runStandinCli: starts, announces its URL, serves, and stops cleanly on SIGINT/SIGTERM.
import { EventEmitter } from 'node:events';
import { Ollama } from 'ollama';

import { runStandinCli, STANDIN_CLI_REQUEST_LOG_LIMIT } from '../../src/standin/standin-cli';
import { rejection } from './standin-test-kit';

describe('runStandinCli', () => {
  it.each(['SIGINT', 'SIGTERM'])('serves the script and stops on %s', async (signal) => {
    const lines: string[] = [];
    const signals = new EventEmitter();
    const handle = await runStandinCli({
      script: { turns: { '*': [{ content: 'from the cli' }] } },
      port: 0,
      log: (l) => lines.push(l),
      signals,
    });
    expect(lines[0]).toBe(`Ollama stand-in listening on http://127.0.0.1:${handle.port}`);
    expect(handle.url).toBe(`http://127.0.0.1:${handle.port}`);
    const client = new Ollama({ host: handle.url });
    expect((await client.chat({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'x' }] })).message.content).toBe('from the cli');
    expect(signals.listenerCount(signal)).toBe(1);
    signals.emit(signal, signal);
    await handle.closed;
    expect(lines.slice(1)).toEqual([`Ollama stand-in: ${signal} received, stopping`, 'Ollama stand-in stopped']);
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
    expect(((await rejection(fetch(`${handle.url}/`))) as Error).message).toBe('fetch failed');
  });

  it('stop() works without a signal and is idempotent; a custom catalog is served', async () => {
    const handle = await runStandinCli({
      catalog: [{ name: 'tiny:1', family: 'llama', parameterSize: '1M', capabilities: ['completion'] }],
      port: 0,
      log: () => undefined,
      signals: new EventEmitter(),
    });
    const tags = (await (await fetch(`${handle.url}/api/tags`)).json()) as { models: { name: string }[] };
    expect(tags.models.map((m) => m.name)).toEqual(['tiny:1']);
    await Promise.all([handle.stop(), handle.stop()]);
    await handle.closed;
  });

  it(`keeps only the newest ${STANDIN_CLI_REQUEST_LOG_LIMIT} requests in its log, however long it serves`, async () => {
    const handle = await runStandinCli({
      script: { turns: { '*': [{ content: 'again' }] }, loop: true },
      port: 0,
      log: () => undefined,
      signals: new EventEmitter(),
    });
    try {
      const client = new Ollama({ host: handle.url });
      const chats = 5;
      for (let i = 0; i < chats; i++) await client.chat({ model: 'llama3.1:8b', messages: [{ role: 'user', content: `chat ${i}` }] });
      // the rest as the cheapest request there is, four at a time
      const versions = STANDIN_CLI_REQUEST_LOG_LIMIT + 20 - chats;
      let sent = 0;
      await Promise.all(
        [0, 1, 2, 3].map(async () => {
          while (sent++ < versions) await (await fetch(`${handle.url}/api/version`)).text();
        }),
      );
      const records = handle.server.requests;
      expect(handle.server.requestsReceived).toBe(STANDIN_CLI_REQUEST_LOG_LIMIT + 20);
      expect(records.length).toBe(STANDIN_CLI_REQUEST_LOG_LIMIT);
      // the oldest went first: the chats are gone, the newest version request is last
      expect(records.some((r) => r.path === '/api/chat')).toBe(false);
      expect(records[records.length - 1].id).toBe(STANDIN_CLI_REQUEST_LOG_LIMIT + 20);
    } finally {
      await handle.stop();
    }
  });

  it('serves with a log of the size asked for', async () => {
    const handle = await runStandinCli({ port: 0, log: () => undefined, signals: new EventEmitter(), server: { requestLogLimit: 2 } });
    try {
      for (let i = 0; i < 3; i++) await (await fetch(`${handle.url}/api/tags`)).text();
      expect(handle.server.requests.map((r) => r.id)).toEqual([2, 3]);
    } finally {
      await handle.stop();
    }
  });
});
