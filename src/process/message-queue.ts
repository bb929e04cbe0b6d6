// User messages sent while the loop runs wait here and are injected between iterations: all at once,
// or one per step (dexto's dequeue, context-management-plan.md §4).
export interface QueuedMessage {
  /** unique within the session, in queue order (msg_1, msg_2…): dexto's message:dequeued carries it */
  id: string;
  text: string;
  queuedAt: number;
}

export class MessageQueue {
  private items: QueuedMessage[] = [];
  private queued = 0;

  enqueue(text: string, now = Date.now()): number {
    this.items.push({ id: `msg_${++this.queued}`, text, queuedAt: now });
    return this.items.length;
  }

  /** The id of the message queued last (journaled with user_message_queued). */
  get lastId(): string | undefined {
    return this.items[this.items.length - 1]?.id;
  }

  drain(): QueuedMessage[] {
    const out = this.items;
    this.items = [];
    return out;
  }

  /** The oldest message, or undefined when none waits. */
  dequeue(): QueuedMessage | undefined {
    return this.items.shift();
  }

  get size(): number {
    return this.items.length;
  }

  clear(): void {
    this.items = [];
  }
}
