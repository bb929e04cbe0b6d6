// GPU auto-detection after the first release: /api/ps on the stand-in (whose loaded models report
// size_vram = the catalog's vramBytes) decides the host's maxWeight.
// Spec: invariant 6, behavioural example "GPU auto-detection upgrades concurrency",
// configuration OLLAMA_MAX_PARALLEL / OLLAMA_NUM_GPU / OLLAMA_REQUEST_TIMEOUT (invariants 7 and 11 defaults).
// covers: ollama-provider#invariant-6
import { Logger } from '@nestjs/common';

import { loadConfig } from '../../src/config/loupe-config';
import type { SlotStatus } from '../../src/provider/llm-provider';
import { OllamaProviderFactory } from '../../src/provider/ollama/ollama-provider.factory';
import type { JournalService } from '../../src/journal/journal.service';
import { StandinServer } from '../../src/standin/standin-server';
import type { StandinModel } from '../../src/standin/standin-script';
import {
  chatRequests,
  cleanup,
  closedPort,
  eventRecorder,
  localModel,
  makeProvider,
  requestsTo,
  startStandin,
  tick,
  tracked,
  user,
} from './provider-test-kit';

afterEach(cleanup);

const GB = 1e9;

async function gpuSetup(models: StandinModel[], overrides: Parameters<typeof makeProvider>[1] = {}) {
  const { server, url, port } = await startStandin({ catalog: models, script: { turns: { '*': [{ content: 'ok' }] }, loop: true } });
  // GPU detection is the host's: it goes to the provider's host-event sink, not to a session
  const events = eventRecorder();
  const t = makeProvider(url, { onHostEvent: events.sink, ...overrides });
  return { server, url, port, ...t, events, limiter: () => t.provider.limiterFor(url) };
}

describe('GPU auto-detection upgrades concurrency (spec example; invariant 6)', () => {
  it('probes /api/ps after the first release, upgrades maxWeight by VRAM tier and admits queued waiters that now fit', async () => {
    const { provider, server, limiter, events } = await gpuSetup([localModel('gpu:1b', { vramBytes: 6 * GB, parallel: 4 })]);
    expect(provider.gpuDetected).toBeNull();
    expect(limiter().maxWeight).toBe(1);

    expect(await provider.acquireSlot('gpu:1b')).toBe(true);
    await provider.complete({ model: 'gpu:1b', messages: user('load the model') });
    expect(requestsTo(server, '/api/ps')).toHaveLength(0); // nothing probed before the first release

    const statuses: SlotStatus[][] = [[], [], []];
    const waiters = statuses.map((list) => tracked(provider.acquireSlot('gpu:1b', undefined, (s) => list.push({ ...s }))));
    while (limiter().queueLength < 3) await tick();
    expect(statuses.map((l) => l[0])).toEqual([1, 2, 3].map((n) => ({ queuePosition: n, queueLength: n, activeWeight: 1, maxWeight: 1 })));

    provider.releaseSlot('gpu:1b');
    // the release itself admits only the head (still serial); the rest wait for the probe
    expect(limiter().queueLength).toBe(2);
    expect(limiter().activeWeight).toBe(1);
    await provider.idle();

    expect(provider.gpuDetected).toBe(true);
    expect(limiter().maxWeight).toBe(3);
    expect(await Promise.all(waiters.map((w) => w.promise))).toEqual([true, true, true]);
    expect(limiter().activeWeight).toBe(3);
    expect(events.of('gpu_detected')).toEqual([
      expect.objectContaining({
        host: provider.host,
        gpuDetected: true,
        totalVramBytes: 6 * GB,
        maxWeight: 3,
        source: 'gpu',
        partialOffload: [],
      }),
    ]);
    const [ps] = requestsTo(server, '/api/ps', 'GET');
    expect(ps.receivedAt).toBeGreaterThanOrEqual(chatRequests(server)[0].finishedAt!);

    // probed once: later releases do not ask again
    for (let i = 0; i < 3; i++) provider.releaseSlot('gpu:1b');
    await provider.idle();
    expect(requestsTo(server, '/api/ps')).toHaveLength(1);
    expect(limiter().activeWeight).toBe(0);
  });

  it.each([
    [[6 * GB], 3],
    [[9.9 * GB], 3],
    [[10 * GB], 5],
    [[25 * GB], 5],
    [[40 * GB], 5],
    [[45 * GB], 8],
    [[6 * GB, 6 * GB], 5], // VRAM of every loaded model is summed
  ])('VRAM %p → maxWeight %p (<10 GB = 3, 10–40 GB = 5, >40 GB = 8)', async (vram, expected) => {
    const models = vram.map((bytes, i) => localModel(`gpu${i}:1b`, { vramBytes: bytes }));
    const { provider, limiter } = await gpuSetup(models);
    for (const m of models) await provider.complete({ model: m.name, messages: user('load') });
    expect(await provider.acquireSlot(models[0].name)).toBe(true);
    provider.releaseSlot(models[0].name);
    await provider.idle();
    expect(provider.gpuDetected).toBe(true);
    expect(limiter().maxWeight).toBe(expected);
  });

  it('no VRAM in use (CPU only): stays serial, warns about the CPU-bound model, and does not probe again', async () => {
    const { provider, server, limiter, logs, events } = await gpuSetup([localModel('cpu:1b', { vramBytes: 0 })]);
    await provider.complete({ model: 'cpu:1b', messages: user('load') });
    expect(await provider.acquireSlot('cpu:1b')).toBe(true);
    provider.releaseSlot('cpu:1b');
    await provider.idle();
    expect(provider.gpuDetected).toBe(false);
    expect(limiter().maxWeight).toBe(1);
    expect(events.of('gpu_detected')).toEqual([expect.objectContaining({ gpuDetected: false, maxWeight: 1, partialOffload: ['cpu:1b'] })]);
    expect(logs).toContainEqual({ level: 'warn', message: expect.stringContaining('cpu:1b') });
    expect(await provider.acquireSlot('cpu:1b')).toBe(true);
    provider.releaseSlot('cpu:1b');
    await provider.idle();
    expect(requestsTo(server, '/api/ps')).toHaveLength(1);
  });

  it('a failed probe leaves detection pending, so a later release probes again', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const { provider, logs } = makeProvider(url);
    expect(await provider.acquireSlot('gpu:1b')).toBe(true);
    provider.releaseSlot('gpu:1b');
    await provider.idle();
    expect(provider.gpuDetected).toBeNull();
    expect(logs).toContainEqual({ level: 'warn', message: expect.stringContaining('GPU detection via /api/ps failed') });

    // the server comes up on that port; the next release probes and detects
    const server = new StandinServer({
      catalog: [localModel('gpu:1b', { vramBytes: 12 * GB })],
      script: { turns: { '*': [{ content: 'ok' }] } },
    });
    await server.start(port);
    try {
      await provider.complete({ model: 'gpu:1b', messages: user('load') });
      expect(await provider.acquireSlot('gpu:1b')).toBe(true);
      provider.releaseSlot('gpu:1b');
      await provider.idle();
      expect(provider.gpuDetected).toBe(true);
      expect(provider.limiterFor(url).maxWeight).toBe(5);
      expect(requestsTo(server, '/api/ps')).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });
});

describe('host spelling', () => {
  it('OLLAMA_HOST written without a scheme or with a trailing slash still upgrades the limiter that acquireSlot uses', async () => {
    for (const spell of [(port: number) => `127.0.0.1:${port}`, (port: number) => `http://127.0.0.1:${port}/`]) {
      const { server, url, port } = await startStandin({
        catalog: [localModel('gpu:1b', { vramBytes: 20 * GB })],
        script: { turns: { '*': [{ content: 'ok' }] } },
      });
      const { provider } = makeProvider(spell(port));
      expect(provider.host).toBe(url);
      expect(await provider.isAvailable()).toBe(true);
      await provider.complete({ model: 'gpu:1b', messages: user('load') });
      expect(await provider.acquireSlot('gpu:1b')).toBe(true);
      provider.releaseSlot('gpu:1b');
      await provider.idle();
      expect(requestsTo(server, '/api/ps')).toHaveLength(1);
      // the next acquire sees the upgraded limit: three at once
      const granted = await Promise.all([1, 2, 3].map(() => provider.acquireSlot('gpu:1b')));
      expect(granted).toEqual([true, true, true]);
      expect(provider.limiterFor(url).activeWeight).toBe(3);
      expect(provider.limiterFor(url).maxWeight).toBe(5);
    }
  });
});

describe('OLLAMA_MAX_PARALLEL and OLLAMA_NUM_GPU', () => {
  it('maxParallel sets maxWeight from the start and skips detection entirely', async () => {
    const { provider, server, limiter } = await gpuSetup([localModel('gpu:1b', { vramBytes: 45 * GB, parallel: 2 })], { maxParallel: 2 });
    expect(provider.gpuDetected).toBe(false);
    expect(limiter().maxWeight).toBe(2);
    expect(await provider.acquireSlot('gpu:1b')).toBe(true);
    expect(await provider.acquireSlot('gpu:1b')).toBe(true);
    const third = tracked(provider.acquireSlot('gpu:1b'));
    await tick();
    expect(third.settled()).toBe(false);
    await provider.complete({ model: 'gpu:1b', messages: user('load') });
    provider.releaseSlot('gpu:1b');
    await provider.idle();
    expect(await third.promise).toBe(true);
    provider.releaseSlot('gpu:1b');
    await provider.idle();
    provider.releaseSlot('gpu:1b');
    await provider.idle();
    expect(limiter().maxWeight).toBe(2); // 45 GB of VRAM would have said 8
    expect(requestsTo(server, '/api/ps')).toHaveLength(0);
  });

  it('numGpu 0 forces CPU mode: num_gpu 0 is sent, no probe, maxWeight stays 1', async () => {
    const { provider, server, limiter } = await gpuSetup([localModel('gpu:1b', { vramBytes: 45 * GB })], { numGpu: 0 });
    expect(provider.gpuDetected).toBe(false);
    expect(await provider.acquireSlot('gpu:1b')).toBe(true);
    await provider.complete({ model: 'gpu:1b', messages: user('x') });
    provider.releaseSlot('gpu:1b');
    await provider.idle();
    expect(requestsTo(server, '/api/ps')).toHaveLength(0);
    expect(limiter().maxWeight).toBe(1);
    const options = (chatRequests(server)[0].body as { options: Record<string, unknown> }).options;
    expect(options).toMatchObject({ num_gpu: 0 });
    expect(options).not.toHaveProperty('num_batch'); // not configured: Ollama picks it (sending it would pin a runner option)
  });

  describe('through the Nest factory and the environment', () => {
    beforeAll(() => Logger.overrideLogger(false));

    const factoryFor = (env: Record<string, string>) =>
      new OllamaProviderFactory(loadConfig(env, process.cwd()), { append: () => {} } as unknown as JournalService);

    it('OLLAMA_MAX_PARALLEL=3 → maxWeight 3, no detection; OLLAMA_NUM_GPU=0 → serial, no detection', async () => {
      const { server, url } = await startStandin({
        catalog: [localModel('gpu:1b', { vramBytes: 45 * GB })],
        script: { turns: { '*': [{ content: 'ok' }] }, loop: true },
      });
      const configured = factoryFor({ OLLAMA_HOST: url, OLLAMA_MAX_PARALLEL: '3' }).default();
      expect(configured.gpuDetected).toBe(false);
      expect(configured.limiterFor(url).maxWeight).toBe(3);
      const cpu = factoryFor({ OLLAMA_HOST: url, OLLAMA_NUM_GPU: '0' }).forHost(url, { isolated: true });
      expect(cpu.gpuDetected).toBe(false);
      const auto = factoryFor({ OLLAMA_HOST: url }).forHost(url, { isolated: true });
      expect(auto.gpuDetected).toBeNull();
      // the auto-detecting one first: after the CPU provider's num_gpu 0 the server keeps the model on
      // the CPU for requests that do not set num_gpu (as Ollama does), and /api/ps would show no VRAM
      for (const p of [auto, configured, cpu]) {
        await p.complete({ model: 'gpu:1b', messages: user('x') });
        expect(await p.acquireSlot('gpu:1b')).toBe(true);
        p.releaseSlot('gpu:1b');
        await p.idle();
        p.models.dispose();
      }
      expect(requestsTo(server, '/api/ps')).toHaveLength(1); // only the auto-detecting one probed
      expect(auto.limiterFor(url).maxWeight).toBe(8);
      expect(cpu.limiterFor(url).maxWeight).toBe(1);
      expect(configured.limiterFor(url).maxWeight).toBe(3);
    });

    it('defaults: 2 min stream idle timeout (100 s for cloud models), 30 min request timeout; OLLAMA_REQUEST_TIMEOUT overrides', () => {
      const defaults = factoryFor({}).forHost('http://gpu-server:11434', { isolated: true });
      expect(defaults.streamBudgets('qwen3:8b')).toMatchObject({ idleTimeoutMs: 120_000, requestTimeoutMs: 1_800_000 });
      expect(defaults.streamBudgets('gpt-oss:120b-cloud')).toMatchObject({ idleTimeoutMs: 100_000, requestTimeoutMs: 1_800_000 });
      const configured = factoryFor({ OLLAMA_REQUEST_TIMEOUT: '5000', OLLAMA_IDLE_TIMEOUT: '700' }).forHost('http://gpu-server:11434', {
        isolated: true,
      });
      expect(configured.streamBudgets('qwen3:8b')).toMatchObject({ idleTimeoutMs: 700, requestTimeoutMs: 5000 });
      for (const p of [defaults, configured]) p.models.dispose();
    });

    it('OLLAMA_REQUEST_TIMEOUT is what ends a long completion, end to end', async () => {
      const slow = localModel('slow:1b', { tokensPerSecond: 20 });
      const { server, url } = await startStandin({
        catalog: [slow],
        script: { turns: { '*': [{ content: Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ') }] } },
      });
      const provider = factoryFor({ OLLAMA_REQUEST_TIMEOUT: '250', LOUPE_RETRY_DELAY_SCALE: '0.01' }).forHost(url, { isolated: true });
      const events = eventRecorder();
      const error = await provider.complete({ model: 'slow:1b', messages: user('x'), onEvent: events.sink }).then(
        () => undefined,
        (e: { info?: { kind: string } }) => e,
      );
      expect(error?.info?.kind).toBe('timeout_request');
      expect(events.of('inference_retry')).toEqual([]); // a whole-request timeout is not retried
      await server.waitForRequests(() => chatRequests(server)[0]?.cancelled === true);
      expect(chatRequests(server)).toHaveLength(1);
      provider.models.dispose();
    });
  });
});
