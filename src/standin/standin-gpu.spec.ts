import type { StandinModel } from './standin-script';
import { GpuSimulator, QueueFullError } from './standin-gpu';

const model = (name: string, extra: Partial<StandinModel> = {}): StandinModel => ({
  name,
  family: 'llama',
  parameterSize: '1B',
  capabilities: ['completion'],
  ...extra,
});

const signal = () => new AbortController().signal;

describe('GpuSimulator', () => {
  it('loads on first use only and reports the model as loaded', async () => {
    const gpu = new GpuSimulator(10, 60_000);
    const m = model('a:1', { loadMs: 15 });
    expect(gpu.isLoaded(m)).toBe(false);
    const first = await gpu.acquire(m, signal());
    expect(first.queued).toBe(true);
    first.release(60_000);
    const second = await gpu.acquire(m, signal());
    expect(second.queued).toBe(false);
    second.release(60_000);
    expect(gpu.loadedModels().map((l) => l.model.name)).toEqual(['a:1']);
    expect(gpu.loadedModels()[0].contextLength).toBe(4096);
  });

  it('loads one model at a time', async () => {
    const gpu = new GpuSimulator(10, 60_000);
    const a = model('a:1', { loadMs: 20 });
    const b = model('b:1', { loadMs: 20 });
    const [la, lb] = await Promise.all([gpu.acquire(a, signal()), gpu.acquire(b, signal())]);
    // b's load started only after a's finished
    expect(lb.loadedAtMs - la.loadedAtMs).toBeGreaterThanOrEqual(15);
    la.release(0);
    lb.release(0);
  });

  it('refuses a request that would wait once maxQueue are waiting', async () => {
    const gpu = new GpuSimulator(1, 60_000);
    const m = model('a:1', { parallel: 1 });
    const held = await gpu.acquire(m, signal());
    const waiter = gpu.acquire(m, signal());
    expect(gpu.waiting).toBe(1);
    await expect(gpu.acquire(m, signal())).rejects.toBeInstanceOf(QueueFullError);
    held.release(60_000);
    (await waiter).release(60_000);
    expect(gpu.waiting).toBe(0);
  });

  it('keep_alive 0 unloads after the request; a past expiry drops it from the list', async () => {
    const gpu = new GpuSimulator(10, 60_000);
    const m = model('a:1');
    (await gpu.acquire(m, signal())).release(0);
    expect(gpu.isLoaded(m)).toBe(false);
    (await gpu.acquire(m, signal())).release(5);
    expect(gpu.isLoaded(m)).toBe(true);
    await new Promise((r) => setTimeout(r, 15));
    expect(gpu.loadedModels()).toEqual([]);
  });

  it('keep_alive null keeps it forever; unload() drops it', async () => {
    const gpu = new GpuSimulator(10, 60_000);
    const m = model('a:1');
    (await gpu.acquire(m, signal())).release(null);
    expect(gpu.loadedModels()[0].expiresAtMs).toBeNull();
    gpu.unload(m);
    expect(gpu.isLoaded(m)).toBe(false);
  });

  it('cloud models never load locally and never list', async () => {
    const gpu = new GpuSimulator(10, 60_000);
    const m = model('x:1-cloud', { loadMs: 10_000 });
    const lease = await gpu.acquire(m, signal());
    expect(lease.queued).toBe(false);
    lease.release(60_000);
    expect(gpu.loadedModels()).toEqual([]);
  });

  it('a waiter whose signal aborts leaves the queue', async () => {
    const gpu = new GpuSimulator(10, 60_000);
    const m = model('a:1');
    const held = await gpu.acquire(m, signal());
    const controller = new AbortController();
    const waiting = gpu.acquire(m, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(gpu.waiting).toBe(0);
    held.release(60_000);
  });
});
