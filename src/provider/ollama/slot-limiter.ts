// Weight-based inference slots for ONE Ollama host. Ollama gives no back-pressure besides a 503,
// so we gate requests client-side: a queued request then waits visibly (and abortably) here
// instead of silently burning its timeout inside the server.
//
// Admission is strict FIFO: a request is admitted at once only if nobody is queued and it fits;
// otherwise it queues, and the queue drains from the head only. A heavy waiter at the head
// therefore blocks lighter requests behind it, which is what keeps it from starving.

import { SlotWaitTimeoutError } from '../provider-errors';

export interface SlotStatus {
  /** 1-based: 1 = next to be admitted */
  queuePosition: number;
  queueLength: number;
  activeWeight: number;
  maxWeight: number;
}

export interface AcquireOptions {
  signal?: AbortSignal;
  /** called when the request is queued and again whenever its position or maxWeight changes */
  onStatus?: (status: SlotStatus) => void;
  /** give up waiting after this long: the promise rejects with SlotWaitTimeoutError */
  timeoutMs?: number;
}

export interface SlotTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SlotLimiterOptions {
  maxWeight: number;
  onWarning?: (message: string, details?: Record<string, unknown>) => void;
  /** used when acquire() gets no timeoutMs; undefined = wait until admitted or aborted */
  defaultTimeoutMs?: number;
  timers?: SlotTimers;
  now?: () => number;
}

export interface SlotLimiterSnapshot {
  activeWeight: number;
  maxWeight: number;
  /** admitted requests not yet released */
  inFlight: number;
  queue: Array<{ position: number; weight: number; waitedMs: number }>;
}

/** What corvid used (OLLAMA_SLOT_WAIT_TIMEOUT_MS); the caller passes it as defaultTimeoutMs. */
export const DEFAULT_SLOT_WAIT_TIMEOUT_MS = 5 * 60_000;

interface Waiter {
  requestedWeight: number;
  enqueuedAt: number;
  lastPosition: number;
  lastMaxWeight: number;
  onStatus?: (status: SlotStatus) => void;
  admit: () => void;
  detach: () => void;
}

const realTimers: SlotTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class SlotLimiter {
  private active = 0;
  private max: number;
  private readonly queue: Waiter[] = [];
  // requested weight -> effective weights granted for it, so release() subtracts exactly what
  // acquire() added even if maxWeight (and therefore the clamp) changed in between
  private readonly grants = new Map<number, number[]>();
  private grantCount = 0;
  // waiters with an onStatus callback; with none, position bookkeeping is skipped entirely
  private listeners = 0;
  private readonly timers: SlotTimers;
  private readonly now: () => number;

  constructor(private readonly options: SlotLimiterOptions) {
    this.max = SlotLimiter.validMaxWeight(options.maxWeight);
    this.timers = options.timers ?? realTimers;
    this.now = options.now ?? Date.now;
  }

  get activeWeight(): number {
    return this.active;
  }

  get maxWeight(): number {
    return this.max;
  }

  get queueLength(): number {
    return this.queue.length;
  }

  /**
   * Resolves true once admitted (the caller must release(weight) later), false if the signal
   * aborted before admission (already-aborted signals included). Rejects with
   * SlotWaitTimeoutError when the wait timeout expires, so a timeout is never mistaken for the
   * caller's own abort.
   */
  acquire(weight: number, options: AcquireOptions = {}): Promise<boolean> {
    const requestedWeight = SlotLimiter.validWeight(weight);
    const { signal, onStatus } = options;
    if (signal?.aborted) return Promise.resolve(false);

    if (this.queue.length === 0 && this.fits(requestedWeight)) {
      this.grant(requestedWeight);
      return Promise.resolve(true);
    }

    return new Promise<boolean>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs;
      let timer: unknown;
      const onAbort = (): void => {
        this.remove(waiter);
        resolve(false);
      };
      const waiter: Waiter = {
        requestedWeight,
        enqueuedAt: this.now(),
        lastPosition: 0,
        lastMaxWeight: this.max,
        onStatus,
        admit: () => {
          waiter.detach();
          this.grant(requestedWeight);
          resolve(true);
        },
        detach: () => {
          if (onStatus) this.listeners--;
          signal?.removeEventListener('abort', onAbort);
          if (timer !== undefined) this.timers.clearTimeout(timer);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
        timer = this.timers.setTimeout(
          () => {
            this.remove(waiter);
            reject(new SlotWaitTimeoutError(requestedWeight, this.now() - waiter.enqueuedAt));
          },
          Math.max(0, timeoutMs),
        );
      }
      if (onStatus) this.listeners++;
      this.queue.push(waiter);
      // only the newcomer's position is new; nobody ahead of it moved
      this.notify(this.queue.length - 1);
    });
  }

  /** Pass the same weight given to acquire(). */
  release(weight: number): void {
    const requestedWeight = SlotLimiter.validWeight(weight);
    const granted = this.grants.get(requestedWeight);
    let effective: number;
    if (granted && granted.length > 0) {
      effective = granted.pop() as number;
      if (granted.length === 0) this.grants.delete(requestedWeight);
      this.grantCount--;
    } else {
      effective = this.clamp(requestedWeight);
      this.warn('release() without a matching acquire()', { weight: requestedWeight, activeWeight: this.active });
    }
    this.active -= effective;
    if (this.active < 0) {
      this.warn('activeWeight went negative; clamped to 0', { activeWeight: this.active, weight: requestedWeight });
      this.active = 0;
    }
    this.drain();
  }

  /**
   * Raising the limit admits queued waiters that now fit. Lowering it never preempts running
   * requests: activeWeight may stay above the new limit until they release, and nothing is
   * admitted meanwhile.
   */
  setMaxWeight(maxWeight: number): void {
    this.max = SlotLimiter.validMaxWeight(maxWeight);
    this.drain(true);
  }

  snapshot(): SlotLimiterSnapshot {
    const now = this.now();
    return {
      activeWeight: this.active,
      maxWeight: this.max,
      inFlight: this.grantCount,
      queue: this.queue.map((waiter, index) => ({
        position: index + 1,
        weight: waiter.requestedWeight,
        waitedMs: now - waiter.enqueuedAt,
      })),
    };
  }

  private fits(requestedWeight: number): boolean {
    return this.active + this.clamp(requestedWeight) <= this.max;
  }

  // heavier than the whole host: run it alone rather than deadlock
  private clamp(requestedWeight: number): number {
    return Math.min(requestedWeight, this.max);
  }

  private grant(requestedWeight: number): void {
    const effective = this.clamp(requestedWeight);
    this.active += effective;
    const granted = this.grants.get(requestedWeight);
    if (granted) granted.push(effective);
    else this.grants.set(requestedWeight, [effective]);
    this.grantCount++;
  }

  private remove(waiter: Waiter): void {
    const index = this.queue.indexOf(waiter);
    if (index === -1) return;
    this.queue.splice(index, 1);
    waiter.detach();
    // the head leaving can unblock lighter waiters behind it; everyone behind moved up
    this.drain(true);
  }

  private drain(positionsChanged = false): void {
    let admitted = 0;
    while (this.queue.length > admitted && this.fits(this.queue[admitted].requestedWeight)) {
      const waiter = this.queue[admitted];
      // grant synchronously so the next fits() sees the new activeWeight
      waiter.admit();
      admitted++;
    }
    if (admitted > 0) this.queue.splice(0, admitted);
    if (admitted > 0 || positionsChanged) this.notify(0);
  }

  private notify(fromIndex: number): void {
    if (this.listeners === 0) return;
    // re-read the queue each step: a callback may abort (and so remove) a waiter synchronously
    for (let index = fromIndex; index < this.queue.length; index++) {
      const waiter = this.queue[index];
      const queuePosition = index + 1;
      const queueLength = this.queue.length;
      if (waiter.lastPosition === queuePosition && waiter.lastMaxWeight === this.max) continue;
      waiter.lastPosition = queuePosition;
      waiter.lastMaxWeight = this.max;
      if (!waiter.onStatus) continue;
      try {
        waiter.onStatus({ queuePosition, queueLength, activeWeight: this.active, maxWeight: this.max });
      } catch (error) {
        this.warn('onStatus callback threw', { error: String(error) });
      }
    }
  }

  private warn(message: string, details?: Record<string, unknown>): void {
    this.options.onWarning?.(message, details);
  }

  private static validWeight(weight: number): number {
    if (!Number.isFinite(weight) || weight <= 0) throw new RangeError(`slot weight must be a positive number, got ${weight}`);
    return weight;
  }

  private static validMaxWeight(maxWeight: number): number {
    if (!Number.isFinite(maxWeight) || maxWeight < 1) throw new RangeError(`maxWeight must be >= 1, got ${maxWeight}`);
    return maxWeight;
  }
}

/** One limiter per Ollama host URL (cloud models routed to localhost get the local one). */
export class SlotLimiterRegistry {
  private readonly limiters = new Map<string, SlotLimiter>();

  constructor(private readonly createLimiter: (host: string) => SlotLimiter) {}

  get(host: string): SlotLimiter {
    let limiter = this.limiters.get(host);
    if (!limiter) {
      limiter = this.createLimiter(host);
      this.limiters.set(host, limiter);
    }
    return limiter;
  }

  has(host: string): boolean {
    return this.limiters.has(host);
  }

  hosts(): string[] {
    return [...this.limiters.keys()];
  }

  snapshot(): Record<string, SlotLimiterSnapshot> {
    return Object.fromEntries([...this.limiters].map(([host, limiter]) => [host, limiter.snapshot()]));
  }
}
