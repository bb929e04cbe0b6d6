// runStandinCli: starts, announces its URL, serves, and stops cleanly on SIGINT/SIGTERM.
import { EventEmitter } from 'node:events';
import { Ollama } from 'ollama';

import { runStandinCli } from '../../src/standin/standin-cli';
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
});
