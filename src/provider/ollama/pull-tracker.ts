// Progress of model downloads, fed from /api/pull progress lines. Ollama reports bytes per layer
// (`pulling <digest>` with that layer's total/completed), so overall progress sums the layers
// seen so far. Finished pulls stay visible for a minute (so a UI polling getActivePulls sees the
// outcome) and are then dropped.

import { canonicalModelName } from './model-name';

export const PULL_STATUS_RETENTION_MS = 60_000;

/** One /api/pull stream line (ollama-js ProgressResponse), or a mid-stream `{"error"}` line. */
export interface PullProgress {
  status?: string;
  digest?: string;
  total?: number;
  completed?: number;
  error?: string;
}

export interface ModelPullStatus {
  model: string;
  /** Ollama's latest status text ("pulling manifest", "pulling dde5aa3fc5ff", "verifying sha256
   *  digest", …) while running; exactly "success" or "error" once finished */
  status: string;
  /** 0–100 over the layers seen so far */
  percent: number;
  completedBytes: number;
  totalBytes: number;
  /** first 12 hex digits of the layer being downloaded */
  currentLayer?: string;
  error?: string;
  startedAt: number;
  finishedAt?: number;
}

export type PullStart =
  | { started: true; status: ModelPullStatus }
  /** a pull of this model is already running: report it rather than track a second one */
  | { started: false; status: ModelPullStatus };

export interface PullTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PullTrackerOptions {
  retentionMs?: number;
  now?: () => number;
  timers?: PullTimers;
}

interface TrackedPull {
  status: ModelPullStatus;
  layers: Map<string, { total: number; completed: number }>;
  cleanup?: unknown;
}

// retention timers must not keep the process alive on shutdown
const realTimers: PullTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const isPullFinished = (status: ModelPullStatus): boolean => status.status === 'success' || status.status === 'error';

export class PullTracker {
  private readonly pulls = new Map<string, TrackedPull>();
  private readonly retentionMs: number;
  private readonly now: () => number;
  private readonly timers: PullTimers;

  constructor(options: PullTrackerOptions = {}) {
    this.retentionMs = options.retentionMs ?? PULL_STATUS_RETENTION_MS;
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? realTimers;
  }

  start(model: string): PullStart {
    const key = canonicalModelName(model);
    const existing = this.pulls.get(key);
    if (existing && !isPullFinished(existing.status)) return { started: false, status: { ...existing.status } };
    if (existing?.cleanup !== undefined) this.timers.clearTimeout(existing.cleanup);
    const status: ModelPullStatus = { model, status: 'starting', percent: 0, completedBytes: 0, totalBytes: 0, startedAt: this.now() };
    this.pulls.set(key, { status, layers: new Map() });
    return { started: true, status: { ...status } };
  }

  /** Applies one progress line; undefined when the model is not being pulled. */
  update(model: string, progress: PullProgress): ModelPullStatus | undefined {
    if (progress.error !== undefined) return this.fail(model, progress.error);
    if (progress.status === 'success') return this.complete(model);
    const pull = this.running(model);
    if (!pull) return undefined;
    if (progress.status) pull.status.status = progress.status;
    if (progress.digest) {
      const previous = pull.layers.get(progress.digest);
      const total = Math.max(0, progress.total ?? previous?.total ?? 0);
      const completed = Math.min(Math.max(0, progress.completed ?? previous?.completed ?? 0), total || Number.POSITIVE_INFINITY);
      pull.layers.set(progress.digest, { total, completed });
      pull.status.currentLayer = progress.digest.replace(/^sha256:/, '').slice(0, 12);
      this.recount(pull);
    }
    return { ...pull.status };
  }

  complete(model: string): ModelPullStatus | undefined {
    const pull = this.running(model);
    if (!pull) return undefined;
    pull.status.completedBytes = pull.status.totalBytes;
    pull.status.percent = 100;
    return this.finish(model, pull, 'success');
  }

  fail(model: string, error: unknown): ModelPullStatus | undefined {
    const pull = this.running(model);
    if (!pull) return undefined;
    pull.status.error = error instanceof Error ? error.message : String(error);
    return this.finish(model, pull, 'error');
  }

  isPulling(model: string): boolean {
    return this.running(model) !== undefined;
  }

  /** Pulls in progress plus finished ones still inside their retention window. */
  getActivePulls(): ModelPullStatus[] {
    return [...this.pulls.values()].map((pull) => ({ ...pull.status }));
  }

  getPullStatus(model: string): ModelPullStatus | undefined {
    const pull = this.pulls.get(canonicalModelName(model));
    return pull ? { ...pull.status } : undefined;
  }

  /** Cancels pending retention timers (module shutdown). */
  dispose(): void {
    for (const pull of this.pulls.values()) {
      if (pull.cleanup !== undefined) this.timers.clearTimeout(pull.cleanup);
    }
    this.pulls.clear();
  }

  private running(model: string): TrackedPull | undefined {
    const pull = this.pulls.get(canonicalModelName(model));
    return pull && !isPullFinished(pull.status) ? pull : undefined;
  }

  private recount(pull: TrackedPull): void {
    let total = 0;
    let completed = 0;
    for (const layer of pull.layers.values()) {
      total += layer.total;
      completed += layer.completed;
    }
    pull.status.totalBytes = total;
    pull.status.completedBytes = completed;
    pull.status.percent = total > 0 ? Math.floor((completed / total) * 100) : 0;
  }

  private finish(model: string, pull: TrackedPull, outcome: 'success' | 'error'): ModelPullStatus {
    pull.status.status = outcome;
    pull.status.finishedAt = this.now();
    const key = canonicalModelName(model);
    pull.cleanup = this.timers.setTimeout(() => {
      // a newer pull of the same model may have replaced this entry meanwhile
      if (this.pulls.get(key) === pull) this.pulls.delete(key);
    }, this.retentionMs);
    return { ...pull.status };
  }
}
