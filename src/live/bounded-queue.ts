// A FIFO with a hard cap, for one live subscriber's undelivered items. A push past the cap is
// refused rather than growing memory or waiting: the subscriber then drops what it holds and
// resynchronises from Postgres, so a slow reader costs the loop nothing.
export class BoundedQueue<T> {
  private items: T[] = [];
  private head = 0;

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new Error(`a bounded queue needs a capacity of at least 1 (got ${capacity})`);
  }

  get size(): number {
    return this.items.length - this.head;
  }

  /** false when full: nothing was added */
  push(item: T): boolean {
    if (this.size >= this.capacity) return false;
    this.items.push(item);
    return true;
  }

  peek(): T | undefined {
    return this.size ? this.items[this.head] : undefined;
  }

  shift(): T | undefined {
    if (!this.size) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined as T;
    // compact now and then, so a long-lived queue does not keep its consumed slots
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** the first item (oldest) that matches, without removing anything */
  find(match: (item: T) => boolean): T | undefined {
    for (let i = this.head; i < this.items.length; i++) if (match(this.items[i])) return this.items[i];
    return undefined;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
