// A short-lived cache for the model list (spec: refreshModels is cached 30 s). Concurrent
// callers share one in-flight load; invalidate() (after a pull or delete) also discards the
// result of a load that started before it, so a stale list is never cached afterwards.

export const MODEL_LIST_TTL_MS = 30_000;

export interface ModelListCacheOptions {
  ttlMs?: number;
  now?: () => number;
}

export class ModelListCache<T> {
  private entry: { value: T; fetchedAt: number } | undefined;
  private inFlight: Promise<T> | undefined;
  private generation = 0;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: ModelListCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? MODEL_LIST_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** the cached value while fresh, else undefined */
  get(): T | undefined {
    return this.entry && this.now() - this.entry.fetchedAt < this.ttlMs ? this.entry.value : undefined;
  }

  set(value: T): void {
    this.entry = { value, fetchedAt: this.now() };
  }

  invalidate(): void {
    this.entry = undefined;
    this.inFlight = undefined;
    this.generation++;
  }

  /** ms since the cached value was fetched; undefined when nothing is cached */
  ageMs(): number | undefined {
    return this.entry ? this.now() - this.entry.fetchedAt : undefined;
  }

  /** The fresh cached value, or the result of `load` (shared by concurrent callers). */
  getOrLoad(load: () => Promise<T>): Promise<T> {
    const cached = this.get();
    if (cached !== undefined) return Promise.resolve(cached);
    if (this.inFlight) return this.inFlight;
    const generation = this.generation;
    const pending = startLoad(load).then(
      (value) => {
        if (generation === this.generation) {
          this.set(value);
          this.inFlight = undefined;
        }
        return value;
      },
      (error: unknown) => {
        // a failed load caches nothing; the next caller tries again
        if (generation === this.generation) this.inFlight = undefined;
        throw error;
      },
    );
    this.inFlight = pending;
    return pending;
  }
}

// a loader that throws synchronously still yields a rejected promise, never a throw
function startLoad<T>(load: () => Promise<T>): Promise<T> {
  try {
    return load();
  } catch (error) {
    return Promise.reject(error);
  }
}
