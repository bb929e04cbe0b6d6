import * as diagnostics from 'node:diagnostics_channel';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { loadConfig } from '../../src/config/loupe-config';
import { startTelemetry } from '../../src/telemetry/telemetry';
import { warmRunProvider, warmSessionPath } from '../../src/eval/trials/trial-warmup';
import * as nudgePolicy from '../../src/process/policies/nudge-policy';
import { JournalRepository } from '../../src/journal/journal.repository';
import { JournalService } from '../../src/journal/journal.service';
import { OllamaProviderFactory } from '../../src/provider/ollama/ollama-provider.factory';
import { closedPort, startStandin } from '../provider/provider-test-kit';

describe('session path warm-up (run while the database starts)', () => {
  // The warm-up's own directories, seen as it makes them (observed, not replaced): other processes
  // (a CLI run beside this suite) make and remove loupe-warmup-* directories in the same tmpdir.
  const watchWarmupDirs = () => {
    const made = jest.spyOn(jest.requireActual<typeof fs>('node:fs'), 'mkdtempSync'); // the module itself: `import * as` gives fixed getters
    let kept: string[] | undefined;
    const dirs = () =>
      kept ??
      made.mock.results.flatMap((r) =>
        r.type === 'return' && path.basename(String(r.value)).startsWith('loupe-warmup-') ? [String(r.value)] : [],
      );
    // restoring the spy clears its record, so what it saw is kept first
    const stop = () => {
      kept = dirs();
      made.mockRestore();
    };
    return { dirs, left: () => dirs().filter((d) => fs.existsSync(d)), stop };
  };

  it('runs whole sessions (a tool call and an answer, or an answer at once) through the loop, provider and MCP tools, and leaves nothing behind', async () => {
    const watch = watchWarmupDirs();
    try {
      const config = loadConfig({ LOUPE_HOME: path.join(os.tmpdir(), 'loupe-warmup-test-home') });
      await expect(warmSessionPath(config, 3)).resolves.toEqual(['completed', 'completed', 'completed']);
      expect(watch.dirs().length).toBeGreaterThan(0);
      expect(watch.left()).toEqual([]);
    } finally {
      watch.stop();
    }
  });

  it('answers at once in every other round, so a text reply before any tool meets the nudge policy (its patterns compile before the run)', async () => {
    const config = loadConfig({ LOUPE_HOME: path.join(os.tmpdir(), 'loupe-warmup-test-home') });
    // observed, not replaced: the policy runs as it does in a trial
    const checks = jest.spyOn(nudgePolicy, 'detectNudgeReason');
    try {
      await expect(warmSessionPath(config, 4)).resolves.toEqual(['completed', 'completed', 'completed', 'completed']);
      // after a tool call the phrase patterns are skipped: only the two answers given at once reach them
      const beforeAnyTool = checks.mock.calls.filter(([input]) => input.toolsCalledSoFar === 0);
      expect(beforeAnyTool.map(([input]) => input.text)).toEqual(['The files are listed.', 'The files are listed.']);
      expect(checks.mock.results.slice(-1)[0]).toEqual({ type: 'return', value: null });
    } finally {
      checks.mockRestore();
    }
  });

  it('starts no round once the run has started (its signal aborted): the rounds would take the thread from the first trials', async () => {
    const config = loadConfig({ LOUPE_HOME: path.join(os.tmpdir(), 'loupe-warmup-test-home') });
    await expect(warmSessionPath(config, 3, AbortSignal.abort())).resolves.toEqual([]);
  });

  it('cuts the round under way short once the run starts, and still leaves nothing behind', async () => {
    const watch = watchWarmupDirs();
    const config = loadConfig({ LOUPE_HOME: path.join(os.tmpdir(), 'loupe-warmup-test-home') });
    const runStarted = new AbortController();
    // the run starts while the first round's first model request is on its way
    const onRequest = (m: unknown) => {
      const { request } = m as { request: { path: string } };
      if (request.path === '/api/chat') runStarted.abort();
    };
    diagnostics.subscribe('http.client.request.start', onRequest);
    try {
      await expect(warmSessionPath(config, 8, runStarted.signal)).resolves.toEqual(['aborted']);
    } finally {
      diagnostics.unsubscribe('http.client.request.start', onRequest);
      watch.stop();
    }
    expect(watch.dirs().length).toBeGreaterThan(0);
    expect(watch.left()).toEqual([]);
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

describe("the run's provider, made and warmed while the database starts (a live run)", () => {
  const configFor = (url: string) =>
    loadConfig({ OLLAMA_HOST: url, OLLAMA_LOCAL_HOST: url, LOUPE_HOME: path.join(os.tmpdir(), 'loupe-warmup-test-home') });

  it("loads the run's first model and caches what its first trial asks: the trial's questions and a second warm-up then ask the host nothing", async () => {
    const model = 'warm:1b';
    const { server, url } = await startStandin({
      catalog: [{ name: model, family: 'llama', parameterSize: '1.0B', capabilities: ['completion', 'tools'], loadMs: 150 }],
      script: { turns: {} },
    });
    const { early, warmed } = warmRunProvider(configFor(url), url, model);
    try {
      await warmed;
      expect(server.requests.map((r) => r.path).sort()).toEqual(['/api/chat', '/api/ps', '/api/show', '/api/tags', '/api/version']);
      const asked = server.requests.length;
      // what a trial's setup asks, and the run's own warm-up at its start
      await expect(early.provider.describe(model)).resolves.toEqual({ digest: expect.any(String), serverVersion: expect.any(String) });
      await early.provider.listModels();
      // the run's own warm-up of its first group: the same runner options (Loupe's default num_ctx)
      await early.provider.warm(model, { numCtx: 8192 });
      expect(server.requests.length).toBe(asked);
      const running = (await (await fetch(`${url}/api/ps`)).json()) as { models: Array<{ name: string }> };
      expect(running.models.map((m) => m.name)).toEqual([model]);
    } finally {
      early.dispose();
      await server.stop();
    }
  });

  it('never rejects: a model the host lacks, an unreachable host; a cloud model is not loaded from here', async () => {
    const { server, url } = await startStandin({ script: { turns: {} } });
    try {
      const missing = warmRunProvider(configFor(url), url, 'missing:1b');
      await expect(missing.warmed).resolves.toBeUndefined();
      missing.early.dispose();
      const refused = `http://127.0.0.1:${await closedPort()}`;
      const away = warmRunProvider(configFor(refused), refused, 'warm:1b');
      await expect(away.warmed).resolves.toBeUndefined();
      away.early.dispose();
      const before = server.requests.length;
      const cloud = warmRunProvider(configFor(url), url, 'gpt-oss:120b-cloud');
      await cloud.warmed;
      cloud.early.dispose();
      expect(server.requests.slice(before).map((r) => r.path)).not.toContain('/api/chat');
    } finally {
      await server.stop();
    }
  });

  it('is adopted as the provider for its host, with the host events it held; a host that has one keeps it', async () => {
    const model = 'warm:1b';
    const { server, url } = await startStandin({
      catalog: [{ name: model, family: 'llama', parameterSize: '1.0B', capabilities: ['completion', 'tools'], vramBytes: 1_000_000 }],
      script: { turns: {} },
    });
    const config = configFor(url);
    const journal = new JournalService(new JournalRepository(null as never), config);
    journal.enabled = false; // its live stream only: nothing is written
    const recorded: string[] = [];
    journal.entries$.subscribe((e) => e.kind === 'event' && e.row.sessionId === null && recorded.push(e.row.type));
    const factory = new OllamaProviderFactory(config, journal);
    const { early, warmed } = warmRunProvider(config, url, model);
    try {
      await warmed;
      // a slot taken and given back before the application exists: the GPU probe's event is held
      expect(await early.provider.acquireSlot(model)).toBe(true);
      early.provider.releaseSlot(model);
      await early.provider.idle();
      expect(recorded).toEqual([]);
      expect(factory.adopt(early)).toBe(true);
      expect(factory.forHost(url)).toBe(early.provider);
      expect(recorded).toEqual(['gpu_detected']);
      // a second early provider for the same host is not adopted (and is disposed)
      const second = warmRunProvider(config, url);
      await second.warmed;
      expect(factory.adopt(second.early)).toBe(false);
      expect(factory.forHost(url)).toBe(early.provider);
    } finally {
      factory.onModuleDestroy();
      await server.stop();
    }
  });
});
