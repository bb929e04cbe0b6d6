// GPU simulation, after Ollama's scheduler: a model loads on first use (one load at a time,
// loadMs), then a FIFO semaphore of `parallel` slots gates generation. Requests that must wait
// (for a load or a slot) count against maxQueue; past it they get the 503. Loaded models expire
// keep_alive after their last request and then leave /api/ps.
import type { StandinModel } from './standin-script';
import { DEFAULT_NUM_CTX, isCloudModel, listedName } from './standin-catalog';
import { SERVER_BUSY_ERROR } from './standin-fault';
import { nowMs } from './standin-go-json';
import { FifoSemaphore, type Release } from './standin-semaphore';
import { raceAbort, sleep } from './standin-async';

/** Cloud models have no local slots; the upstream's capacity is modelled as ample. */
const CLOUD_PARALLEL = 64;

export class QueueFullError extends Error {
  constructor() {
    super(SERVER_BUSY_ERROR);
    this.name = 'QueueFullError';
  }
}

interface ModelRuntime {
  model: StandinModel;
  slots: FifoSemaphore;
  state: 'unloaded' | 'loading' | 'loaded';
  loading?: Promise<void>;
  active: number;
  /** null = keep loaded forever */
  expiresAtMs: number | null;
  /** keep_alive of the latest request, for expires_at while requests run */
  keepAliveMs: number | null;
  contextLength: number;
}

export interface SlotLease {
  /** the request had to wait for a load or a slot */
  queued: boolean;
  /** when the model was ready (load_duration ends here; slot waiting is not load time) */
  loadedAtMs: number;
  /** when the slot was granted (generation starts) */
  acquiredAtMs: number;
  /** frees the slot and starts the keep_alive countdown (null = forever, 0 = unload now) */
  release(keepAliveMs: number | null): void;
}

export interface LoadedModelView {
  model: StandinModel;
  expiresAtMs: number | null;
  contextLength: number;
}

export class GpuSimulator {
  private readonly runtimes = new Map<string, ModelRuntime>();
  private loadLock = new FifoSemaphore(1);
  private shutdown = new AbortController();
  private waitingCount = 0;

  constructor(
    private readonly maxQueue: number,
    private readonly defaultKeepAliveMs: number | null,
  ) {}

  /** Requests inside the server waiting for a load or a slot. */
  get waiting(): number {
    return this.waitingCount;
  }

  /** Admits a request, waits for the model and a slot. Throws QueueFullError or AbortError. */
  async acquire(model: StandinModel, signal: AbortSignal, numCtx?: number, keepAliveMs?: number | null): Promise<SlotLease> {
    const rt = this.runtime(model);
    this.expireIfDue(rt);
    const cloud = isCloudModel(model);
    const mustWait = rt.slots.saturated || (!cloud && rt.state !== 'loaded');
    if (mustWait && this.waitingCount >= this.maxQueue) throw new QueueFullError();
    if (keepAliveMs !== undefined) rt.keepAliveMs = keepAliveMs;
    this.waitingCount += 1;
    let releaseSlot: Release;
    let loadedAtMs: number;
    try {
      if (!cloud) await this.ensureLoaded(rt, signal, numCtx);
      loadedAtMs = nowMs();
      releaseSlot = await rt.slots.acquire(signal);
    } finally {
      this.waitingCount -= 1;
    }
    rt.active += 1;
    let done = false;
    return {
      queued: mustWait,
      loadedAtMs,
      acquiredAtMs: nowMs(),
      release: (keepAlive) => {
        if (done) return;
        done = true;
        rt.active -= 1;
        rt.keepAliveMs = keepAlive;
        rt.expiresAtMs = keepAlive === null ? null : nowMs() + keepAlive;
        releaseSlot();
        this.expireIfDue(rt);
      },
    };
  }

  /** Loads without taking a slot (chat with no messages). */
  async load(model: StandinModel, signal: AbortSignal, numCtx?: number, keepAliveMs?: number | null): Promise<void> {
    const rt = this.runtime(model);
    this.expireIfDue(rt);
    if (isCloudModel(model)) return;
    if (rt.state !== 'loaded' && this.waitingCount >= this.maxQueue) throw new QueueFullError();
    this.waitingCount += 1;
    try {
      await this.ensureLoaded(rt, signal, numCtx);
    } finally {
      this.waitingCount -= 1;
    }
    const keepAlive = keepAliveMs === undefined ? this.defaultKeepAliveMs : keepAliveMs;
    rt.keepAliveMs = keepAlive;
    if (rt.active === 0) rt.expiresAtMs = keepAlive === null ? null : nowMs() + keepAlive;
  }

  /** keep_alive 0 with no messages, or a delete: gone now, or when running requests finish. */
  unload(model: StandinModel): void {
    const rt = this.runtimes.get(listedName(model));
    if (!rt || rt.state === 'unloaded') return;
    rt.expiresAtMs = nowMs();
    this.expireIfDue(rt);
  }

  isLoaded(model: StandinModel): boolean {
    const rt = this.runtimes.get(listedName(model));
    if (!rt) return false;
    this.expireIfDue(rt);
    return rt.state === 'loaded';
  }

  /** Models /api/ps lists: loaded local models (cloud models never appear). */
  loadedModels(): LoadedModelView[] {
    const out: LoadedModelView[] = [];
    for (const rt of this.runtimes.values()) {
      this.expireIfDue(rt);
      if (rt.state !== 'loaded' || isCloudModel(rt.model)) continue;
      const running = rt.active > 0;
      const expiresAtMs = running ? (rt.keepAliveMs === null ? null : nowMs() + rt.keepAliveMs) : rt.expiresAtMs;
      out.push({ model: rt.model, expiresAtMs, contextLength: rt.contextLength });
    }
    return out;
  }

  /** Drops all state and fails everything waiting (server reset or stop). */
  reset(): void {
    this.shutdown.abort();
    this.shutdown = new AbortController();
    for (const rt of this.runtimes.values()) rt.slots.rejectAll(abortReason());
    this.loadLock.rejectAll(abortReason());
    this.loadLock = new FifoSemaphore(1);
    this.runtimes.clear();
  }

  private runtime(model: StandinModel): ModelRuntime {
    const key = listedName(model);
    let rt = this.runtimes.get(key);
    if (!rt) {
      const parallel = model.parallel ?? (isCloudModel(model) ? CLOUD_PARALLEL : 1);
      rt = {
        model,
        slots: new FifoSemaphore(Math.max(1, Math.floor(parallel))),
        state: 'unloaded',
        active: 0,
        expiresAtMs: null,
        keepAliveMs: this.defaultKeepAliveMs,
        contextLength: DEFAULT_NUM_CTX,
      };
      this.runtimes.set(key, rt);
    }
    return rt;
  }

  private ensureLoaded(rt: ModelRuntime, signal: AbortSignal, numCtx?: number): Promise<void> {
    if (rt.state === 'loaded') return Promise.resolve();
    if (rt.state === 'unloaded') {
      rt.state = 'loading';
      const shutdown = this.shutdown.signal;
      const lock = this.loadLock;
      rt.loading = (async () => {
        const release = await lock.acquire(shutdown); // only one model loads at a time
        try {
          await sleep(rt.model.loadMs ?? 0, shutdown);
        } finally {
          release();
        }
        rt.state = 'loaded';
        rt.contextLength = numCtx && numCtx > 0 ? Math.floor(numCtx) : Math.min(DEFAULT_NUM_CTX, rt.model.contextLength ?? DEFAULT_NUM_CTX);
        rt.expiresAtMs = rt.keepAliveMs === null ? null : nowMs() + rt.keepAliveMs;
      })();
      rt.loading.catch(() => {
        if (rt.state === 'loading') rt.state = 'unloaded';
      });
    }
    return raceAbort(rt.loading!, signal);
  }

  private expireIfDue(rt: ModelRuntime): void {
    if (rt.state !== 'loaded' || rt.active > 0 || rt.expiresAtMs === null) return;
    if (nowMs() >= rt.expiresAtMs) rt.state = 'unloaded';
  }
}

function abortReason(): Error {
  const err = new Error('stand-in server stopped');
  err.name = 'AbortError';
  return err;
}
