// The GPU simulation's vocabulary: its options, a load's record, a request's slot lease, what
// /api/ps lists, and the per-model runtime state the scheduler keeps (standin-gpu.ts).
import type { StandinModel } from './standin-script';
import type { CloudState } from './standin-fault';
import type { FifoSemaphore } from './standin-semaphore';
import type { LoadCause, ResolvedRunner } from './standin-runner-rules';

export interface GpuOptions {
  /** OLLAMA_MAX_QUEUE: requests waiting for the scheduler (loads, reloads, evictions) beyond this get the 503 */
  maxQueue: number;
  /** keep_alive of a request that sends none, ms (null = forever) */
  defaultKeepAliveMs: number | null;
  defaultContextLength?: number;
  maxLoadedModels?: number;
  gpuVramBytes?: number;
  /** multiplies load times and keep_alive (default 1) */
  timeScale?: number;
  cloud?: CloudState;
  /** slots of a local model without its own `parallel` (default 1) */
  numParallel?: number;
  /** called when the loaded set changes, so log waiters re-check */
  onChange?: () => void;
}

/** One (re)load of a model, and why. */
export interface LoadRecord {
  model: string;
  cause: LoadCause;
  runnerId: number;
  runner: ResolvedRunner;
  /** the options of the runner this one replaced (options_changed) */
  previous?: ResolvedRunner;
  /** models evicted to make room for it */
  evicted: string[];
  startedAtMs: number;
  loadedAtMs: number;
  /** loaded by the server's `loaded:` setting at start, in no time */
  preloaded?: boolean;
}

export interface SlotLease {
  /** the request had to wait for the scheduler (a load) or a slot */
  queued: boolean;
  /** when the model was ready (load_duration ends here; slot waiting is not load time) */
  loadedAtMs: number;
  /** when the slot was granted (generation starts) */
  acquiredAtMs: number;
  /** the loaded context (num_ctx after the training-length cap) */
  contextLength: number;
  /** the runner serving it: a new id on every load or reload of the model (a prompt cache lives within one) */
  runnerId: number;
  /** the runner changed while the request waited (it caused or awaited a load) */
  reloaded: boolean;
  /** the load this request performed, with its cause */
  load?: LoadRecord;
  /** frees the slot and starts the keep_alive countdown (null = forever, 0 = unload now) */
  release(keepAliveMs: number | null): void;
}

export interface LoadedModelView {
  model: StandinModel;
  expiresAtMs: number | null;
  contextLength: number;
  runnerId: number;
  /** bytes the loaded model takes in all (weights and KV cache) */
  sizeBytes: number;
  /** of which on the GPU */
  vramBytes: number;
}

export interface Runner {
  id: number;
  resolved: ResolvedRunner;
  vramBytes: number;
}

export interface ModelRuntime {
  key: string;
  model: StandinModel;
  slots: FifoSemaphore;
  state: 'unloaded' | 'loading' | 'loaded';
  runner?: Runner;
  /** requests holding the runner: generating or waiting for a slot */
  active: number;
  lastUsedMs: number;
  /** null = keep loaded forever (or running) */
  expiresAtMs: number | null;
  /** keep_alive of the latest request */
  keepAliveMs: number | null;
  /** unload as soon as it goes idle (a delete or keep_alive 0 load request while it ran) */
  unloadWhenIdle: boolean;
  /** why it is not loaded now: the next load's cause */
  unloadedBecause?: LoadCause;
}
