import { MODEL_LIST_TTL_MS, ModelListCache } from './model-list-cache';

function setup(ttlMs?: number) {
  let now = 1_000;
  const cache = new ModelListCache<string[]>({ ttlMs, now: () => now });
  let calls = 0;
  const load = (value: string[]) => () => {
    calls++;
    return Promise.resolve(value);
  };
  return { cache, load, advance: (ms: number) => (now += ms), calls: () => calls };
}

describe('ModelListCache', () => {
  it('defaults to a 30 s TTL', () => {
    expect(MODEL_LIST_TTL_MS).toBe(30_000);
  });

  it.each([
    { name: 'serves the cached list just inside the TTL', elapsed: 29_999, expected: { list: ['a'], loads: 1 } },
    { name: 'reloads once the TTL has passed', elapsed: 30_000, expected: { list: ['b'], loads: 2 } },
  ])('$name', async ({ elapsed, expected }) => {
    const { cache, load, advance, calls } = setup();
    await cache.getOrLoad(load(['a']));
    advance(elapsed);
    const list = await cache.getOrLoad(load(['b']));
    expect({ list, loads: calls() }).toEqual(expected);
  });

  it('honours a custom TTL and reports the age', () => {
    const { cache, advance } = setup(5_000);
    expect([cache.get(), cache.ageMs()]).toEqual([undefined, undefined]);
    cache.set(['x']);
    advance(4_999);
    expect([cache.get(), cache.ageMs()]).toEqual([['x'], 4_999]);
    advance(1);
    expect([cache.get(), cache.ageMs()]).toEqual([undefined, 5_000]);
  });

  it('shares one in-flight load between concurrent callers', async () => {
    const { cache, load, calls } = setup();
    const results = await Promise.all([cache.getOrLoad(load(['a'])), cache.getOrLoad(load(['b']))]);
    expect({ results, loads: calls() }).toEqual({ results: [['a'], ['a']], loads: 1 });
  });

  it('forces a reload after invalidate()', async () => {
    const { cache, load, calls } = setup();
    await cache.getOrLoad(load(['a']));
    cache.invalidate();
    expect(cache.get()).toBeUndefined();
    expect({ list: await cache.getOrLoad(load(['b'])), loads: calls() }).toEqual({ list: ['b'], loads: 2 });
  });

  it('does not cache a load that started before invalidate()', async () => {
    const { cache } = setup();
    let resolveStale: (value: string[]) => void = () => undefined;
    const stale = cache.getOrLoad(() => new Promise<string[]>((resolve) => (resolveStale = resolve)));
    cache.invalidate();
    const fresh = cache.getOrLoad(() => Promise.resolve(['fresh']));
    resolveStale(['stale']);
    expect([await stale, await fresh, cache.get()]).toEqual([['stale'], ['fresh'], ['fresh']]);
  });

  it.each([
    { name: 'caches nothing when the load rejects, and retries next time', loader: () => Promise.reject(new Error('ECONNREFUSED')) },
    {
      name: 'turns a loader that throws synchronously into a rejection',
      loader: () => {
        throw new Error('ECONNREFUSED');
      },
    },
  ])('$name', async ({ loader }) => {
    const { cache, load } = setup();
    await expect(cache.getOrLoad(loader)).rejects.toThrow('ECONNREFUSED');
    expect(cache.get()).toBeUndefined();
    await expect(cache.getOrLoad(load(['a']))).resolves.toEqual(['a']);
  });
});
