// GPU simulation, after Ollama's scheduler (server/sched.go). One scheduler queue, served in
// order: a request for a model loaded with its runner options goes straight to the model's FIFO
// slots (waiting there is unbounded); any other request waits its turn in the scheduler queue
// (bounded by maxQueue: past it, the 503), then drains and reloads a model whose options differ,
// evicts the least recently used idle model when MAX_LOADED_MODELS or the VRAM would be exceeded
// (waiting for a busy one to go idle, never cutting its requests), and loads. While the scheduler
// works, every new request queues behind it, as Ollama's pendingReqCh does. An idle model expires
// keep_alive after its last request (checked lazily: /api/ps and the next request see it).
import { EventEmitter } from 'node:events';

import type { StandinModel } from './standin-script';
import { DEFAULT_NUM_CTX, isCloudModel, listedName } from './standin-catalog';
import { QueueFullError, cloudRefusal, type CloudState } from './standin-fault';

export { QueueFullError } from './standin-fault';
import { nowMs } from './standin-go-json';
import { FifoSemaphore, abortError, type Release } from './standin-semaphore';
import { sleep } from './standin-async';
import {
  DEFAULT_GPU_VRAM_BYTES,
  DEFAULT_MAX_LOADED_MODELS,
  DEFAULT_NUM_BATCH,
  expiryAt,
  footprintBytes,
  makeRoom,
  needsReload,
  resolveRunner,
  scaleMs,
  type LoadCause,
  type ResolvedRunner,
  type RunnerOptions,
} from './standin-runner-rules';

export type { RunnerOptions } from './standin-runner-rules';
export type { GpuOptions, LoadRecord, LoadedModelView, SlotLease } from './standin-gpu-types';
import type { GpuOptions, LoadRecord, LoadedModelView, ModelRuntime, SlotLease } from './standin-gpu-types';
import { loadedModelView } from './standin-loaded-view';

/** Cloud models have no local slots; the upstream's capacity is modelled as ample. */
const CLOUD_PARALLEL = 64;

export class GpuSimulator {
  private readonly runtimes = new Map<string, ModelRuntime>();
  private sched = new FifoSemaphore(1);
  private shutdown = new AbortController();
  private readonly idle = new EventEmitter().setMaxListeners(0);
  private inScheduler = 0;
  private slotWaiters = 0;
  private nextRunnerId = 1;
  private readonly loadLog: LoadRecord[] = [];
  private readonly maxQueue: number;
  private readonly defaultKeepAliveMs: number | null;
  private readonly defaults: { contextLength: number; numBatch: number };
  private readonly maxLoadedModels: number;
  private readonly gpuVramBytes: number;
  private readonly timeScale: number;
  private readonly cloud: CloudState;
  private readonly numParallel: number;
  private readonly onChange: () => void;

  constructor(options: GpuOptions) {
    this.maxQueue = options.maxQueue;
    this.defaultKeepAliveMs = options.defaultKeepAliveMs;
    this.defaults = { contextLength: options.defaultContextLength ?? DEFAULT_NUM_CTX, numBatch: DEFAULT_NUM_BATCH };
    this.maxLoadedModels = options.maxLoadedModels ?? DEFAULT_MAX_LOADED_MODELS;
    this.gpuVramBytes = options.gpuVramBytes ?? DEFAULT_GPU_VRAM_BYTES;
    this.timeScale = options.timeScale ?? 1;
    this.cloud = options.cloud ?? 'signed_in';
    this.numParallel = options.numParallel ?? 1;
    this.onChange = options.onChange ?? (() => undefined);
  }

  /** Requests inside the server waiting for the scheduler (a load) or a parallel slot. */
  get waiting(): number {
    return this.inScheduler + this.slotWaiters;
  }

  /** Requests queued behind the scheduler: what maxQueue bounds. */
  get pendingLoads(): number {
    return this.sched.waiting;
  }

  /** Every load and reload so far, in order, with its cause. */
  get loads(): readonly LoadRecord[] {
    return this.loadLog;
  }

  /** Admits a request, waits for its model (loaded with its runner options) and a slot. Throws QueueFullError, StandinHttpError or AbortError. */
  async acquire(model: StandinModel, signal: AbortSignal, runner: RunnerOptions = {}, keepAliveMs?: number | null): Promise<SlotLease> {
    const rt = this.runtime(model);
    if (keepAliveMs !== undefined) rt.keepAliveMs = keepAliveMs;
    let scheduled = false;
    let load: LoadRecord | undefined;
    const runnerBefore = rt.runner?.id;
    if (isCloudModel(model)) {
      const refusal = cloudRefusal(this.cloud);
      if (refusal) throw refusal;
      this.hold(rt);
    } else {
      const want = resolveRunner(model, runner, this.defaults);
      if (this.usable(rt, want)) this.hold(rt);
      else {
        load = await this.schedule(rt, want, signal);
        scheduled = true;
      }
    }
    const queued = scheduled || rt.slots.saturated;
    const loadedAtMs = nowMs();
    let releaseSlot: Release;
    this.slotWaiters += 1;
    try {
      releaseSlot = await rt.slots.acquire(signal);
    } catch (err) {
      this.drop(rt);
      throw err;
    } finally {
      this.slotWaiters -= 1;
    }
    rt.lastUsedMs = nowMs();
    const runnerId = rt.runner!.id;
    let done = false;
    return {
      queued,
      loadedAtMs,
      acquiredAtMs: nowMs(),
      contextLength: rt.runner!.resolved.numCtx,
      runnerId,
      reloaded: runnerBefore !== runnerId,
      load,
      release: (keepAlive) => {
        if (done) return;
        done = true;
        rt.keepAliveMs = keepAlive;
        releaseSlot();
        this.drop(rt);
      },
    };
  }

  /** Loads without taking a slot (a request with no messages / no prompt). Returns the load it performed, if any. */
  async load(
    model: StandinModel,
    signal: AbortSignal,
    runner: RunnerOptions = {},
    keepAliveMs?: number | null,
  ): Promise<LoadRecord | undefined> {
    const rt = this.runtime(model);
    if (isCloudModel(model)) {
      const refusal = cloudRefusal(this.cloud);
      if (refusal) throw refusal;
      return undefined;
    }
    const want = resolveRunner(model, runner, this.defaults);
    let load: LoadRecord | undefined;
    if (this.usable(rt, want)) this.hold(rt);
    else load = await this.schedule(rt, want, signal);
    rt.keepAliveMs = keepAliveMs === undefined ? this.defaultKeepAliveMs : keepAliveMs;
    this.drop(rt);
    return load;
  }

  /** Marks a model loaded at once (the server's `loaded:` setting), as a request with these options would have left it. */
  preload(model: StandinModel, runner: RunnerOptions, keepAliveMs: number | null): void {
    const rt = this.runtime(model);
    if (isCloudModel(model)) return;
    const want = resolveRunner(model, runner, this.defaults);
    const at = nowMs();
    rt.runner = { id: this.nextRunnerId++, resolved: want, vramBytes: Math.min(footprintBytes(model, want), this.gpuVramBytes) };
    rt.state = 'loaded';
    rt.keepAliveMs = keepAliveMs;
    rt.lastUsedMs = at;
    rt.expiresAtMs = expiryAt(at, keepAliveMs, this.timeScale);
    this.loadLog.push({
      model: rt.key,
      cause: 'first_load',
      runnerId: rt.runner.id,
      runner: want,
      evicted: [],
      startedAtMs: at,
      loadedAtMs: at,
      preloaded: true,
    });
    this.onChange();
  }

  /** keep_alive 0 with no messages, or a delete: gone now, or when its running requests finish. */
  unload(model: StandinModel): void {
    const rt = this.runtimes.get(listedName(model));
    if (!rt || rt.state !== 'loaded') return;
    if (rt.active > 0) rt.unloadWhenIdle = true;
    else this.unloadNow(rt, 'unloaded');
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
      const view = loadedModelView(rt, this.timeScale, nowMs());
      if (view) out.push(view);
    }
    return out;
  }

  /** Drops all state and fails everything waiting (server reset or stop). */
  reset(): void {
    this.shutdown.abort(abortReason());
    this.shutdown = new AbortController();
    for (const rt of this.runtimes.values()) rt.slots.rejectAll(abortReason());
    this.sched.rejectAll(abortReason());
    this.sched = new FifoSemaphore(1);
    this.runtimes.clear();
    this.loadLog.length = 0;
    this.idle.emit('idle');
  }

  /** Loaded with options it can serve, and nothing queued ahead in the scheduler: straight to the slots. */
  private usable(rt: ModelRuntime, want: ResolvedRunner): boolean {
    this.expireIfDue(rt);
    return !this.sched.saturated && rt.state === 'loaded' && !needsReload(rt.runner!.resolved, want);
  }

  /** Waits its turn in the scheduler queue, then readies the model; returns holding the runner. */
  private async schedule(rt: ModelRuntime, want: ResolvedRunner, signal: AbortSignal): Promise<LoadRecord | undefined> {
    if (this.sched.saturated && this.sched.waiting >= this.maxQueue) throw new QueueFullError();
    this.inScheduler += 1;
    try {
      const release = await this.sched.acquire(signal);
      try {
        return await this.place(rt, want, AbortSignal.any([signal, this.shutdown.signal]));
      } finally {
        release();
      }
    } finally {
      this.inScheduler -= 1;
    }
  }

  /** With the scheduler held: drain and reload, make room, load; then take a hold on the runner. */
  private async place(rt: ModelRuntime, want: ResolvedRunner, signal: AbortSignal): Promise<LoadRecord | undefined> {
    this.expireIfDue(rt);
    if (rt.state === 'loaded' && !needsReload(rt.runner!.resolved, want)) {
      this.hold(rt);
      return undefined;
    }
    let cause = rt.unloadedBecause ?? 'first_load';
    let previous: ResolvedRunner | undefined;
    if (rt.state === 'loaded') {
      cause = 'options_changed';
      previous = rt.runner!.resolved;
      // in-flight requests (and those already waiting for its slots) finish on the old runner
      while (rt.active > 0) await this.nextIdle(signal);
      this.unloadNow(rt, 'options_changed');
    }
    const bytes = footprintBytes(rt.model, want);
    const evicted: string[] = [];
    for (;;) {
      const others = this.loadedOthers(rt);
      const room = makeRoom(
        others.map((o) => ({ key: o.key, vramBytes: o.runner!.vramBytes, lastUsedMs: o.lastUsedMs, busy: o.active > 0 })),
        bytes,
        this.maxLoadedModels,
        this.gpuVramBytes,
      );
      if (room.kind === 'fits') break;
      if (room.kind === 'evict') {
        this.unloadNow(this.runtimes.get(room.key)!, 'evicted');
        evicted.push(room.key);
      } else await this.nextIdle(signal);
    }
    rt.state = 'loading';
    const startedAtMs = nowMs();
    try {
      await sleep(scaleMs(rt.model.loadMs ?? 0, this.timeScale), signal);
    } catch (err) {
      rt.state = 'unloaded';
      throw err;
    }
    const used = this.loadedOthers(rt).reduce((sum, o) => sum + o.runner!.vramBytes, 0);
    // what does not fit beside the others is offloaded to the CPU (size_vram < size)
    rt.runner = { id: this.nextRunnerId++, resolved: want, vramBytes: Math.max(0, Math.min(bytes, this.gpuVramBytes - used)) };
    rt.state = 'loaded';
    rt.unloadedBecause = undefined;
    const record: LoadRecord = {
      model: rt.key,
      cause,
      runnerId: rt.runner.id,
      runner: want,
      previous,
      evicted,
      startedAtMs,
      loadedAtMs: nowMs(),
    };
    this.loadLog.push(record);
    this.hold(rt);
    this.onChange();
    return record;
  }

  private loadedOthers(rt: ModelRuntime): ModelRuntime[] {
    const out: ModelRuntime[] = [];
    for (const o of this.runtimes.values()) {
      this.expireIfDue(o);
      if (o !== rt && o.state === 'loaded' && !isCloudModel(o.model)) out.push(o);
    }
    return out;
  }

  private hold(rt: ModelRuntime): void {
    rt.active += 1;
    rt.expiresAtMs = null;
    rt.lastUsedMs = nowMs();
  }

  private drop(rt: ModelRuntime): void {
    rt.active -= 1;
    rt.lastUsedMs = nowMs();
    if (rt.active > 0) return;
    if (rt.unloadWhenIdle) this.unloadNow(rt, 'unloaded');
    else if (rt.state === 'loaded') {
      rt.expiresAtMs = expiryAt(rt.lastUsedMs, rt.keepAliveMs, this.timeScale);
      this.expireIfDue(rt);
    }
    this.idle.emit('idle');
  }

  private unloadNow(rt: ModelRuntime, cause: LoadCause): void {
    rt.state = 'unloaded';
    rt.runner = isCloudModel(rt.model) ? rt.runner : undefined;
    rt.unloadedBecause = cause;
    rt.unloadWhenIdle = false;
    rt.expiresAtMs = null;
    this.onChange();
  }

  /** Resolves when some model's last request lets go of it (or the server resets). */
  private nextIdle(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const onIdle = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        this.idle.off('idle', onIdle);
        reject(abortError(signal));
      };
      this.idle.once('idle', onIdle);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private runtime(model: StandinModel): ModelRuntime {
    const key = listedName(model);
    let rt = this.runtimes.get(key);
    if (!rt) {
      const cloud = isCloudModel(model);
      const parallel = model.parallel ?? (cloud ? CLOUD_PARALLEL : this.numParallel);
      rt = {
        key,
        model,
        slots: new FifoSemaphore(Math.max(1, Math.floor(parallel))),
        state: 'unloaded',
        active: 0,
        lastUsedMs: nowMs(),
        expiresAtMs: null,
        keepAliveMs: this.defaultKeepAliveMs,
        unloadWhenIdle: false,
      };
      // a cloud model runs upstream at its full context, on one "runner" that never reloads
      if (cloud) {
        const numCtx = model.contextLength ?? this.defaults.contextLength;
        rt.runner = { id: this.nextRunnerId++, resolved: { numCtx, numBatch: this.defaults.numBatch, numGpu: -1 }, vramBytes: 0 };
      }
      this.runtimes.set(key, rt);
    }
    return rt;
  }

  private expireIfDue(rt: ModelRuntime): void {
    if (rt.state !== 'loaded' || rt.active > 0 || rt.expiresAtMs === null) return;
    if (nowMs() >= rt.expiresAtMs) this.unloadNow(rt, 'keep_alive_expired');
  }
}

function abortReason(): Error {
  const err = new Error('stand-in server stopped');
  err.name = 'AbortError';
  return err;
}
