// The scheduler's decisions, after Ollama's server/sched.go: which runner options a request gets
// (its own, else the server's defaults, num_ctx capped at the training context), whether a loaded
// runner must be reloaded for it (needsReload), what a loaded model occupies in VRAM, which model
// to evict to make room, and when an idle model expires. Pure: the GPU simulation acts on them.
import type { StandinModel } from './standin-script';
import { DEFAULT_NUM_CTX, isCloudModel, modelVramBytes, parameterCount } from './standin-catalog';

/** The request's runner options (Ollama's api.Runner subset that forces a reload); unset = the server default. */
export interface RunnerOptions {
  numCtx?: number;
  numBatch?: number;
  numGpu?: number;
}

/** Runner options after defaults and the training-length cap: what a runner is loaded with. */
export interface ResolvedRunner {
  numCtx: number;
  numBatch: number;
  numGpu: number;
}

/** Why a model was (re)loaded for a request. */
export type LoadCause = 'first_load' | 'options_changed' | 'keep_alive_expired' | 'evicted' | 'unloaded';

/** Ollama's "auto" num_batch as the stand-in reports it (api.DefaultOptions: 512). */
export const DEFAULT_NUM_BATCH = 512;
/** -1: as many layers as fit on the GPU (Ollama's default). */
export const DEFAULT_NUM_GPU = -1;
/** OLLAMA_MAX_LOADED_MODELS: 3 per GPU; the stand-in simulates one GPU. */
export const DEFAULT_MAX_LOADED_MODELS = 3;
/** The simulated GPU: 24 GiB, a common single-card setup (fits the default catalog's three largest local models at 4k). */
export const DEFAULT_GPU_VRAM_BYTES = 24 * 1024 ** 3;
/** KV cache per token per billion parameters (fp16, GQA: llama3.1:8b → 128 KiB a token). */
export const KV_BYTES_PER_TOKEN_PER_BILLION = 16 * 1024;

export interface RunnerDefaults {
  /** OLLAMA_CONTEXT_LENGTH */
  contextLength: number;
  numBatch: number;
}

/** A request's effective runner options: unset fields take the server defaults; num_ctx is capped at the model's training length. */
export function resolveRunner(model: StandinModel, requested: RunnerOptions, defaults: RunnerDefaults): ResolvedRunner {
  const wanted = positiveInt(requested.numCtx) ?? defaults.contextLength;
  const training = positiveInt(model.contextLength);
  // Ollama raises num_ctx below 4 to 4 (GetRunner)
  const numCtx = Math.max(4, training ? Math.min(wanted, training) : wanted);
  const numBatch = positiveInt(requested.numBatch) ?? defaults.numBatch;
  const numGpu = typeof requested.numGpu === 'number' && Number.isFinite(requested.numGpu) ? Math.trunc(requested.numGpu) : DEFAULT_NUM_GPU;
  return { numCtx, numBatch, numGpu };
}

/** sched.go needsReload: any runner option differs; a request with num_gpu < 0 (auto) never reloads on num_gpu. */
export function needsReload(loaded: ResolvedRunner, requested: ResolvedRunner): boolean {
  const gpuDiffers = requested.numGpu >= 0 && requested.numGpu !== loaded.numGpu;
  return loaded.numCtx !== requested.numCtx || loaded.numBatch !== requested.numBatch || gpuDiffers;
}

/** KV-cache bytes a token of context costs this model. */
export function kvBytesPerToken(model: StandinModel): number {
  return Math.round((parameterCount(model) / 1e9) * KV_BYTES_PER_TOKEN_PER_BILLION);
}

/**
 * Bytes the model occupies loaded at `numCtx`: its `vramBytes` (the footprint at the default 4096
 * context) plus the KV cache for the context beyond that (or minus it below):
 * vramBytes + kvBytesPerToken × (numCtx − 4096), never below the weights' share of vramBytes.
 * num_gpu 0 (CPU only) or a cloud model occupies no VRAM.
 */
export function footprintBytes(model: StandinModel, runner: ResolvedRunner): number {
  if (isCloudModel(model) || runner.numGpu === 0) return 0;
  const base = modelVramBytes(model);
  if (base === 0) return 0;
  const kv = kvBytesPerToken(model);
  const weights = Math.max(0, base - kv * DEFAULT_NUM_CTX);
  return Math.max(weights, base + kv * (runner.numCtx - DEFAULT_NUM_CTX));
}

export interface LoadedRunnerView {
  key: string;
  /** bytes it occupies on the GPU */
  vramBytes: number;
  lastUsedMs: number;
  /** requests hold it (running or waiting for a slot) */
  busy: boolean;
}

export type RoomDecision = { kind: 'fits' } | { kind: 'evict'; key: string } | { kind: 'wait' };

/**
 * Room for a model that needs `incomingBytes`: it fits when fewer than maxLoadedModels are loaded
 * and the VRAM left holds it; else the least recently used idle model goes; with every other model
 * busy the load waits for one to go idle. With nothing else loaded it always loads (Ollama offloads
 * what does not fit to the CPU).
 */
export function makeRoom(
  loaded: readonly LoadedRunnerView[],
  incomingBytes: number,
  maxLoadedModels: number,
  gpuVramBytes: number,
): RoomDecision {
  if (loaded.length === 0) return { kind: 'fits' };
  const used = loaded.reduce((sum, r) => sum + r.vramBytes, 0);
  if (loaded.length < maxLoadedModels && used + incomingBytes <= gpuVramBytes) return { kind: 'fits' };
  const idle = loaded.filter((r) => !r.busy).sort((a, b) => a.lastUsedMs - b.lastUsedMs);
  return idle.length ? { kind: 'evict', key: idle[0].key } : { kind: 'wait' };
}

/** When an idle model expires: keep_alive (ms, null = never) after it went idle, on the scaled clock. */
export function expiryAt(idleSinceMs: number, keepAliveMs: number | null, timeScale: number): number | null {
  if (keepAliveMs === null) return null;
  return idleSinceMs + scaleMs(keepAliveMs, timeScale);
}

/** A simulated duration on the server's clock (timeScale 0.01: a 2 s load takes 20 ms). */
export function scaleMs(ms: number, timeScale: number): number {
  return ms > 0 ? ms * timeScale : 0;
}

/** Decode speed on the scaled clock: faster when time runs faster. */
export function scaleRate(tokensPerSecond: number | undefined, timeScale: number): number | undefined {
  if (tokensPerSecond === undefined || timeScale === 1) return tokensPerSecond;
  return timeScale > 0 ? tokensPerSecond / timeScale : undefined;
}

function positiveInt(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}
