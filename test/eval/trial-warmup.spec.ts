import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { loadConfig } from '../../src/config/loupe-config';
import { startTelemetry } from '../../src/telemetry/telemetry';
import { warmModelHosts, warmSessionPath } from '../../src/eval/trial-warmup';
import { closedPort, startStandin } from '../provider/provider-test-kit';

describe('session path warm-up (run while the database starts)', () => {
  const leftovers = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('loupe-warmup-'));

  it('runs whole sessions (a tool call, then an answer) through the loop, provider and MCP tools, and leaves nothing behind', async () => {
    const before = leftovers();
    const config = loadConfig({ LOUPE_HOME: path.join(os.tmpdir(), 'loupe-warmup-test-home') });
    await expect(warmSessionPath(config, 3)).resolves.toEqual(['completed', 'completed', 'completed']);
    expect(leftovers()).toEqual(before);
  });

  it('starts no round once the run has started (its signal aborted): the rounds would take the thread from the first trials', async () => {
    const config = loadConfig({ LOUPE_HOME: path.join(os.tmpdir(), 'loupe-warmup-test-home') });
    await expect(warmSessionPath(config, 3, AbortSignal.abort())).resolves.toEqual([]);
  });

  it('leaves no trace, even where spans are exported', async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = startTelemetry({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    try {
      const config = loadConfig({ LOUPE_HOME: path.join(os.tmpdir(), 'loupe-warmup-test-home') });
      await expect(warmSessionPath(config, 1)).resolves.toEqual(['completed']);
      // the same tracer records outside the warm-up
      telemetry.tracer.startSpan('outside').end();
      expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['outside']);
    } finally {
      await telemetry.shutdown();
    }
  });
});

describe('model host warm-up (a live run, while the database starts)', () => {
  it('asks each host the run uses for its version once, and says which one did not answer instead of throwing', async () => {
    const { server, url } = await startStandin({ script: { turns: {} } });
    try {
      const refused = `http://127.0.0.1:${await closedPort()}`;
      const { versions, load } = await warmModelHosts(url, refused);
      expect(versions[url]).toMatch(/^\d+\.\d+/);
      expect(versions[refused]).toMatch(/^unreachable: /);
      expect(load).toBeUndefined();
      expect(server.requests.map((r) => r.path)).toEqual(['/api/version']);
      // the local Ollama is the host itself (same loopback port): asked once
      expect(Object.keys((await warmModelHosts(url, url.replace('127.0.0.1', 'localhost'))).versions)).toEqual([url]);
    } finally {
      await server.stop();
    }
  });

  it("loads the run's first model and asks what its first trial asks (list, show), so both are ready when the run starts", async () => {
    const model = 'warm:1b';
    const { server, url } = await startStandin({
      catalog: [{ name: model, family: 'llama', parameterSize: '1.0B', capabilities: ['completion', 'tools'], loadMs: 150 }],
      script: { turns: {} },
    });
    try {
      const running = async () => ((await (await fetch(`${url}/api/ps`)).json()) as { models: Array<{ name: string }> }).models;
      expect(await running()).toEqual([]);
      await expect(warmModelHosts(url, url, { model })).resolves.toEqual({ versions: { [url]: expect.any(String) }, load: 'loaded' });
      expect((await running()).map((m) => m.name)).toEqual([model]);
      expect(server.requests.map((r) => r.path).sort()).toEqual([
        '/api/chat',
        '/api/ps',
        '/api/ps',
        '/api/show',
        '/api/tags',
        '/api/version',
      ]);
      // a model the host lacks: said, not thrown; a cloud model has nothing to load here
      expect((await warmModelHosts(url, url, { model: 'missing:1b' })).load).toMatch(/^unreachable: .*not found/);
      expect(await warmModelHosts(url, url, { model: 'gpt-oss:120b-cloud' })).toEqual({ versions: { [url]: expect.any(String) } });
    } finally {
      await server.stop();
    }
  });
});
