// A FIFO counting semaphore like Go's semaphore.Weighted with weight 1: waiters are served in
// arrival order (a freed slot goes to the oldest waiter, never to a newcomer), and a waiter whose
// signal aborts leaves the queue without taking a slot.

export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
  fail: (err: unknown) => void;
}

export function abortError(signal?: AbortSignal): Error {
  const reason = signal?.reason;
  if (reason instanceof Error) return reason;
  const err = new Error('This operation was aborted');
  err.name = 'AbortError';
  return err;
}

export class FifoSemaphore {
  private inUse = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`semaphore capacity must be ≥ 1, got ${capacity}`);
  }

  get active(): number {
    return this.inUse;
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** True when an acquire now would wait. */
  get saturated(): boolean {
    return this.inUse >= this.capacity || this.queue.length > 0;
  }

  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (!this.saturated) {
      this.inUse += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const onAbort = (): void => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(abortError(signal));
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        fail: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Fails every waiter (server shutdown). */
  rejectAll(err: unknown): void {
    for (const w of this.queue.splice(0)) w.fail(err);
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next)
        next.grant(this.releaser()); // the slot passes straight on; inUse unchanged
      else this.inUse -= 1;
    };
  }
}
