// User messages sent while the loop runs wait here and are injected between iterations.
export interface QueuedMessage {
  text: string;
  queuedAt: number;
}

export class MessageQueue {
  private items: QueuedMessage[] = [];

  enqueue(text: string, now = Date.now()): number {
    this.items.push({ text, queuedAt: now });
    return this.items.length;
  }

  drain(): QueuedMessage[] {
    const out = this.items;
    this.items = [];
    return out;
  }

  get size(): number {
    return this.items.length;
  }

  clear(): void {
    this.items = [];
  }
}
