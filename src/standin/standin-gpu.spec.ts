import type { StandinModel } from './standin-script';
import { GpuSimulator, QueueFullError, type GpuOptions } from './standin-gpu';
import { StandinHttpError } from './standin-fault';

const model = (name: string, extra: Partial<StandinModel> = {}): StandinModel => ({
  name,
  family: 'llama',
  parameterSize: '1B',
  capabilities: ['completion'],
  ...extra,
});

const signal = () => new AbortController().signal;
const gpu = (extra: Partial<GpuOptions> = {}) => new GpuSimulator({ maxQueue: 10, defaultKeepAliveMs: 60_000, ...extra });
/** lets queued promise continuations run */
const settle = () => new Promise((r) => setImmediate(r));

describe('GpuSimulator', () => {
  it('loads on first use only and reports the model as loaded', async () => {
    const g = gpu();
    const m = model('a:1', { loadMs: 15 });
    expect(g.isLoaded(m)).toBe(false);
    const first = await g.acquire(m, signal());
    expect(first).toMatchObject({ queued: true, reloaded: true, contextLength: 4096, load: { cause: 'first_load' } });
    first.release(60_000);
    const second = await g.acquire(m, signal());
    expect(second).toMatchObject({ queued: false, reloaded: false, runnerId: first.runnerId, load: undefined });
    second.release(60_000);
    expect(g.loadedModels().map((l) => [l.model.name, l.contextLength])).toEqual([['a:1', 4096]]);
  });

  it('loads one model at a time', async () => {
    const g = gpu();
    const a = model('a:1', { loadMs: 20 });
    const b = model('b:1', { loadMs: 20 });
    const [la, lb] = await Promise.all([g.acquire(a, signal()), g.acquire(b, signal())]);
    expect(lb.load!.startedAtMs).toBeGreaterThanOrEqual(la.load!.loadedAtMs);
    la.release(0);
    lb.release(0);
  });

  it('reloads on changed runner options once the running request is done, with a new runner id', async () => {
    const g = gpu();
    const m = model('a:1', { contextLength: 8192 });
    const running = await g.acquire(m, signal(), { numCtx: 4096 });
    let reloadedLease: Awaited<ReturnType<GpuSimulator['acquire']>> | undefined;
    const reloading = g.acquire(m, signal(), { numCtx: 2048, numBatch: 1024 }).then((l) => (reloadedLease = l));
    await settle();
    expect(reloadedLease).toBeUndefined(); // waits for the in-flight request to drain
    running.release(60_000);
    await reloading;
    expect(reloadedLease).toMatchObject({
      contextLength: 2048,
      reloaded: true,
      load: { cause: 'options_changed', previous: { numCtx: 4096 } },
    });
    expect(reloadedLease!.runnerId).toBeGreaterThan(running.runnerId);
    reloadedLease!.release(60_000);
    expect(g.loadedModels()[0].contextLength).toBe(2048);
    // num_ctx above the training length is capped, and asking for the cap again is no reload
    const capped = await g.acquire(m, signal(), { numCtx: 100_000, numBatch: 1024 });
    expect(capped.contextLength).toBe(8192);
    capped.release(60_000);
    const same = await g.acquire(m, signal(), { numCtx: 9000, numBatch: 1024 });
    expect(same.load).toBeUndefined();
    same.release(60_000);
  });

  it('queues a request for a loaded model behind a pending reload, as the scheduler does', async () => {
    const g = gpu();
    const m = model('a:1');
    const running = await g.acquire(m, signal());
    const order: string[] = [];
    const reload = g.acquire(m, signal(), { numCtx: 2048 }).then((l) => (order.push('reload'), l));
    await settle();
    const sameAsOld = g.acquire(m, signal()).then((l) => (order.push('old options'), l));
    await settle();
    expect(g.pendingLoads).toBe(1);
    running.release(60_000);
    const r = await reload;
    r.release(60_000);
    const o = await sameAsOld;
    // it came after the reload and so reloads back
    expect(order).toEqual(['reload', 'old options']);
    expect(o.load?.cause).toBe('options_changed');
    o.release(60_000);
  });

  it('slot waiters never count against maxQueue; only the scheduler queue does', async () => {
    const g = gpu({ maxQueue: 1 });
    const m = model('a:1', { parallel: 1 });
    const held = await g.acquire(m, signal());
    const waiters = Array.from({ length: 50 }, () => g.acquire(m, signal()));
    expect(g.waiting).toBe(50);
    expect(g.pendingLoads).toBe(0);
    // a second model: one load in progress, one queued behind it, the next refused
    const other = model('b:1', { loadMs: 10_000 });
    const controller = new AbortController();
    const loading = g.acquire(other, controller.signal);
    const queued = g.acquire(other, controller.signal);
    await settle();
    expect(g.pendingLoads).toBe(1);
    await expect(g.acquire(other, signal())).rejects.toBeInstanceOf(QueueFullError);
    controller.abort();
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' });
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    held.release(60_000);
    for (const w of waiters) (await w).release(60_000);
    expect(g.waiting).toBe(0);
  });

  it('keep_alive 0 unloads after the request; a past expiry drops it from the list with the cause', async () => {
    const g = gpu();
    const m = model('a:1');
    (await g.acquire(m, signal())).release(0);
    expect(g.isLoaded(m)).toBe(false);
    const next = await g.acquire(m, signal());
    expect(next.load?.cause).toBe('keep_alive_expired');
    // the clock (hrtime) moves only when the test moves it, from the release on
    jest.useFakeTimers();
    try {
      next.release(5);
      expect(g.isLoaded(m)).toBe(true);
      // a millisecond either side of the expiry (at it, the float sums of the clock may round either way)
      jest.advanceTimersByTime(4);
      expect(g.loadedModels().map((l) => l.model.name)).toEqual(['a:1']);
      jest.advanceTimersByTime(2);
      expect(g.loadedModels()).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('timeScale shortens keep_alive', async () => {
    const g = gpu({ timeScale: 0.0001 }); // 5 minutes → 30 ms
    const m = model('a:1');
    const lease = await g.acquire(m, signal());
    const releasedAt = performance.timeOrigin + performance.now();
    lease.release(300_000);
    const [view] = g.loadedModels();
    expect(view.expiresAtMs! - releasedAt).toBeLessThan(1000);
  });

  it('keep_alive null keeps it forever; unload() drops it', async () => {
    const g = gpu();
    const m = model('a:1');
    (await g.acquire(m, signal())).release(null);
    expect(g.loadedModels()[0].expiresAtMs).toBeNull();
    g.unload(m);
    expect(g.isLoaded(m)).toBe(false);
  });

  it('evicts the least recently used idle model at maxLoadedModels', async () => {
    const g = gpu({ maxLoadedModels: 2 });
    const [a, b, c] = ['a:1', 'b:1', 'c:1'].map((n) => model(n));
    (await g.acquire(a, signal())).release(60_000);
    (await g.acquire(b, signal())).release(60_000);
    (await g.acquire(a, signal())).release(60_000); // a is now the more recent
    const lc = await g.acquire(c, signal());
    expect(lc.load?.evicted).toEqual(['b:1']);
    lc.release(60_000);
    expect(
      g
        .loadedModels()
        .map((l) => l.model.name)
        .sort(),
    ).toEqual(['a:1', 'c:1']);
    expect((await g.acquire(b, signal())).load?.cause).toBe('evicted');
  });

  it('waits for a busy model to go idle rather than evicting it', async () => {
    const g = gpu({ maxLoadedModels: 1 });
    const a = model('a:1');
    const held = await g.acquire(a, signal());
    let got = false;
    const b = g.acquire(model('b:1'), signal()).then((l) => ((got = true), l));
    await settle();
    expect(got).toBe(false);
    held.release(60_000);
    expect((await b).load?.evicted).toEqual(['a:1']);
  });

  it('evicts to fit the VRAM, the footprint growing with the context', async () => {
    const g = gpu({ gpuVramBytes: 20e9 });
    const big = (n: string) => model(n, { parameterSize: '8B', vramBytes: 8e9, contextLength: 131_072 });
    (await g.acquire(big('a:1'), signal(), { numCtx: 4096 })).release(60_000);
    (await g.acquire(big('b:1'), signal(), { numCtx: 4096 })).release(60_000); // 16 GB used
    const c = await g.acquire(big('c:1'), signal(), { numCtx: 32_768 }); // 8 GB + 28k × 128 KiB: a must go
    expect(c.load?.evicted).toEqual(['a:1']);
    c.release(60_000);
  });

  it('preloads a model warm at its own context', async () => {
    const g = gpu();
    const m = model('a:1', { contextLength: 8192 });
    g.preload(m, { numCtx: 2048 }, null);
    expect(g.loadedModels()[0].contextLength).toBe(2048);
    const lease = await g.acquire(m, signal(), { numCtx: 2048 });
    expect(lease.load).toBeUndefined();
    lease.release(null);
  });

  it('cloud models never load locally and never list; signed out they get the 401, disabled the 403', async () => {
    const m = model('x:1-cloud', { loadMs: 10_000 });
    const g = gpu();
    const lease = await g.acquire(m, signal());
    expect(lease.queued).toBe(false);
    lease.release(60_000);
    expect(g.loadedModels()).toEqual([]);
    const out = await gpu({ cloud: 'signed_out' })
      .acquire(m, signal())
      .catch((e: unknown) => e);
    expect(out).toBeInstanceOf(StandinHttpError);
    expect((out as StandinHttpError).status).toBe(401);
    expect((out as StandinHttpError).body).toMatchObject({
      error: 'unauthorized',
      signin_url: expect.stringMatching(/^https:\/\/ollama\.com\/connect\?name=/),
    });
    await expect(gpu({ cloud: 'disabled' }).load(m, signal())).rejects.toMatchObject({ status: 403 });
  });

  it('a waiter whose signal aborts leaves the queue', async () => {
    const g = gpu();
    const m = model('a:1');
    const held = await g.acquire(m, signal());
    const controller = new AbortController();
    const waiting = g.acquire(m, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(g.waiting).toBe(0);
    held.release(60_000);
  });
});
