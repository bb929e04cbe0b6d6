// Model management against the stand-in: pulls with streamed progress tracked per model (joined
// when concurrent, dropped 60 s after they finish), delete, running models, reachability.
// Spec: invariant 13; error cases "Pull already in progress" and "Ollama unreachable" (isAvailable).
// covers: ollama-provider#invariant-13
// covers: ollama-provider#error-pull-already-in-progress, ollama-provider#error-ollama-unreachable-fetch-fails
import type { ModelPullStatus, PullTimers, PullTrackerOptions } from '../../src/provider/ollama/pull-tracker';
import {
  chatRequests,
  cleanup,
  closedPort,
  localModel,
  makeProvider,
  providerError,
  requestsTo,
  startStandin,
  user,
} from './provider-test-kit';

afterEach(cleanup);

// weights layer of exactly 2 GB (the stand-in adds template, license and params layers of 12 865 bytes)
const PULLABLE = localModel('phi3:mini', { installed: false, sizeBytes: 2_000_012_865, family: 'phi3' });
const TINY = localModel('tinyllama', { installed: false, sizeBytes: 600_000_000 });
const INSTALLED = localModel('gemma:2b', { family: 'gemma', vramBytes: 2_380_000_000 });

async function setup(options: { stepMs?: number; pullTracker?: PullTrackerOptions } = {}) {
  const { server, url } = await startStandin({
    catalog: [INSTALLED, PULLABLE, TINY],
    pull: { stepMs: options.stepMs ?? 0, progressSteps: 4 },
    script: { turns: { '*': [{ content: 'ok' }] }, loop: true },
  });
  const t = makeProvider(url, { pullTracker: options.pullTracker });
  return { server, url, ...t, models: t.provider.models };
}

/** Timers that only run when the test says so; remembers each delay asked for. */
function manualTimers(): PullTimers & { pending: Array<{ callback: () => void; ms: number; cleared: boolean }>; runAll: () => void } {
  const pending: Array<{ callback: () => void; ms: number; cleared: boolean }> = [];
  return {
    pending,
    setTimeout: (callback, ms) => {
      const entry = { callback, ms, cleared: false };
      pending.push(entry);
      return entry;
    },
    clearTimeout: (handle) => {
      (handle as { cleared: boolean }).cleared = true;
    },
    runAll: () => pending.filter((p) => !p.cleared).forEach((p) => p.callback()),
  };
}

describe('pull with streamed progress', () => {
  it('tracks status, percent, bytes and the current layer per model, then lists the new model', async () => {
    const { server, models } = await setup();
    expect(await models.refreshModels()).toEqual(['gemma:2b']);
    const seen: ModelPullStatus[] = [];
    const live: Array<ModelPullStatus | undefined> = [];
    await models.pullModel('phi3:mini', (s) => {
      seen.push(s);
      live.push(models.getPullStatus('phi3:mini'));
    });

    const statuses = seen.map((s) => s.status);
    expect(statuses[0]).toBe('pulling manifest');
    expect(statuses.slice(-3)).toEqual(['verifying sha256 digest', 'writing manifest', 'success']);
    const layerLines = seen.filter((s) => s.status.startsWith('pulling ') && s.status !== 'pulling manifest');
    expect(layerLines).toHaveLength(7); // the weights in 4 steps, then template, license, params in one line each
    for (const s of layerLines) {
      expect(s.status).toBe(`pulling ${s.currentLayer}`);
      expect(s.currentLayer).toMatch(/^[0-9a-f]{12}$/);
    }
    expect(new Set(layerLines.map((s) => s.currentLayer)).size).toBe(4);
    expect(layerLines.slice(0, 4).map((s) => s.percent)).toEqual([25, 50, 75, 100]);
    const percents = seen.map((s) => s.percent);
    expect(percents.every((p, i) => i === 0 || p >= percents[i - 1] || seen[i].totalBytes > seen[i - 1].totalBytes)).toBe(true);
    expect(seen.at(-1)).toMatchObject({
      model: 'phi3:mini',
      status: 'success',
      percent: 100,
      completedBytes: 2_000_012_865,
      totalBytes: 2_000_012_865,
    });
    expect(seen.at(-1)!.finishedAt).toBeGreaterThanOrEqual(seen.at(-1)!.startedAt);
    expect(seen.at(-1)!.error).toBeUndefined();
    // what getPullStatus returned at each step is what the callback got
    expect(live).toEqual(seen);
    expect(models.getActivePulls()).toEqual([seen.at(-1)]);

    expect(requestsTo(server, '/api/pull')).toHaveLength(1);
    // the list was invalidated by the pull: the new model shows up at once, not after 30 s
    expect((await models.refreshModels()).sort()).toEqual(['gemma:2b', 'phi3:mini']);
  });

  it('a pull that fails mid-stream ends as status "error" with the server\'s message', async () => {
    const { models } = await setup();
    const seen: ModelPullStatus[] = [];
    const error = await providerError(models.pullModel('no-such-model:7b', (s) => seen.push(s)));
    expect(error.message).toContain('pull model manifest: file does not exist');
    // permanent: pulling again will not make the registry have it
    expect(error.info).toMatchObject({ kind: 'model_not_found', retryable: false });
    expect(seen.map((s) => s.status)).toEqual(['pulling manifest', 'error']);
    expect(models.getPullStatus('no-such-model:7b')).toMatchObject({ status: 'error', error: 'pull model manifest: file does not exist' });
  });
});

describe('pull already in progress (spec error case)', () => {
  it('a second pull of the same model joins the first: one download, both callers get the progress', async () => {
    const { server, models } = await setup({ stepMs: 5 });
    const a: string[] = [];
    const b: string[] = [];
    const first = models.pullModel('tinyllama', (s) => a.push(s.status));
    const second = models.pullModel('tinyllama:latest', (s) => b.push(s.status));
    expect(second).toBe(first);
    expect(models.getActivePulls()).toHaveLength(1);
    await Promise.all([first, second]);
    expect(requestsTo(server, '/api/pull')).toHaveLength(1);
    expect(a.at(-1)).toBe('success');
    expect(b.at(-1)).toBe('success');
    expect(b.length).toBeGreaterThan(1);
    expect(models.getActivePulls().map((s) => [s.model, s.status])).toEqual([['tinyllama', 'success']]);
  });

  it('pulls of different models run side by side, each tracked on its own', async () => {
    const { server, models } = await setup({ stepMs: 5 });
    const running = [models.pullModel('tinyllama'), models.pullModel('phi3:mini')];
    expect(
      models
        .getActivePulls()
        .map((s) => s.model)
        .sort(),
    ).toEqual(['phi3:mini', 'tinyllama']);
    expect(models.getActivePulls().every((s) => s.status !== 'success')).toBe(true);
    await Promise.all(running);
    expect(requestsTo(server, '/api/pull')).toHaveLength(2);
    expect(models.getPullStatus('tinyllama')).toMatchObject({ status: 'success', totalBytes: 600_000_000 });
    expect(models.getPullStatus('phi3:mini')).toMatchObject({ status: 'success', totalBytes: 2_000_012_865 });
  });

  it('once finished, pulling the same model again starts a new download', async () => {
    const { server, models } = await setup();
    await models.pullModel('tinyllama');
    await models.pullModel('tinyllama');
    expect(requestsTo(server, '/api/pull')).toHaveLength(2);
  });
});

describe('pull status cleanup (invariant 13)', () => {
  it('terminal statuses are dropped 60 s after they finish, successful or not', async () => {
    const timers = manualTimers();
    const { models } = await setup({ pullTracker: { timers } });
    await models.pullModel('tinyllama');
    await models.pullModel('gone:1b').catch(() => undefined);
    expect(
      models
        .getActivePulls()
        .map((s) => s.status)
        .sort(),
    ).toEqual(['error', 'success']);
    expect(timers.pending.map((p) => p.ms)).toEqual([60_000, 60_000]);
    timers.runAll();
    expect(models.getActivePulls()).toEqual([]);
    expect(models.getPullStatus('tinyllama')).toBeUndefined();
    expect(models.getPullStatus('gone:1b')).toBeUndefined();
  });

  it('with a short retention the status really goes away on its own', async () => {
    const { models } = await setup({ pullTracker: { retentionMs: 20 } });
    // the tracker's own timers (setTimeout), faked so the test moves them; the pull's HTTP is real
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance', 'Date'] });
    try {
      await models.pullModel('tinyllama');
      expect(models.getPullStatus('tinyllama')?.status).toBe('success');
      jest.advanceTimersByTime(19);
      expect(models.getPullStatus('tinyllama')?.status).toBe('success');
      jest.advanceTimersByTime(1);
      expect(models.getPullStatus('tinyllama')).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('delete', () => {
  it('removes the model on the host and from the (cached) list', async () => {
    const { server, models, provider } = await setup();
    expect(await models.refreshModels()).toEqual(['gemma:2b']);
    expect(await models.deleteModel('gemma:2b')).toEqual({ success: true });
    expect(requestsTo(server, '/api/delete', 'DELETE').map((r) => r.body)).toEqual([expect.objectContaining({ name: 'gemma:2b' })]);
    expect(await models.refreshModels()).toEqual([]);
    const error = await providerError(provider.complete({ model: 'gemma:2b', messages: user('x') }));
    expect(error.info.kind).toBe('model_not_found');
  });

  it("a model that is not there: success false with the server's message", async () => {
    const { models } = await setup();
    expect(await models.deleteModel('nope:1b')).toEqual({ success: false, error: "model 'nope:1b' not found" });
  });
});

describe('running models and reachability', () => {
  it('getRunningModels reports what /api/ps shows after a completion loaded a model', async () => {
    const { models, provider, server } = await setup();
    expect(await models.getRunningModels()).toEqual([]);
    await provider.complete({ model: 'gemma:2b', messages: user('x') });
    expect(chatRequests(server)).toHaveLength(1);
    expect(await models.getRunningModels()).toEqual([
      { name: 'gemma:2b', size: 2_380_000_000, sizeVram: 2_380_000_000, contextLength: 4096 },
    ]);
    const [detail] = await models.getModelDetails();
    expect(detail).toMatchObject({ name: 'gemma:2b', loaded: true, family: 'gemma', capabilities: ['completion', 'tools'] });
  });

  it('isAvailable: true for a running server, false for a closed port', async () => {
    const { provider } = await setup();
    expect(await provider.isAvailable()).toBe(true);
    const { provider: down } = makeProvider(`http://127.0.0.1:${await closedPort()}`);
    expect(await down.isAvailable()).toBe(false);
  });
});

describe('server version (recorded by every trial)', () => {
  it('trials asking at once share one /api/version request, and the answer is kept', async () => {
    const { models, server } = await setup();
    const answers = await Promise.all(Array.from({ length: 8 }, () => models.serverVersion()));
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/^\d+\.\d+/);
    expect(await models.serverVersion()).toBe(answers[0]);
    expect(requestsTo(server, '/api/version')).toHaveLength(1);
  });
});

describe('model details (/api/show, asked by every trial for its slot weight)', () => {
  it('trials asking at once share one request per model, the answer is kept, and a model the host lacks is still an error', async () => {
    const { models, server } = await setup();
    const infos = await Promise.all(Array.from({ length: 8 }, () => models.modelInfo('gemma:2b')));
    expect(infos.every((i) => i.details?.family === 'gemma')).toBe(true);
    await models.modelInfo('gemma:2b');
    expect(requestsTo(server, '/api/show')).toHaveLength(1);
    await expect(models.modelInfo('nope:1b')).rejects.toThrow(/not found/);
  });
});

describe('warm (before the first timed trial of a live run)', () => {
  it('loads the model and leaves what the setup of each trial asks for cached: no further requests for it', async () => {
    const { provider, server } = await setup();
    await provider.warm('gemma:2b');
    const seen = () => server.requests.map((r) => r.path).sort();
    // /api/ps: the context the model was loaded with, for the truncation guard
    expect(seen()).toEqual(['/api/chat', '/api/ps', '/api/show', '/api/tags', '/api/version']);
    await Promise.all([provider.describe('gemma:2b'), provider.listModels(), provider.models.modelInfo('gemma:2b')]);
    expect(seen()).toEqual(['/api/chat', '/api/ps', '/api/show', '/api/tags', '/api/version']);
  });
});
