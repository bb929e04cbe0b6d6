// One socket's feed of snapshots keyed by what they describe (a run, a trial, a row of the session
// list): only the newest snapshot per key waits, delivered in order of change, and the set waiting is
// bounded — past it the buffer is dropped and the client told to re-read. A slow reader slows nothing
// but itself.
import { writable, type FlowSocket } from './socket-flow';

export class KeyedSubscription {
  private readonly waiting = new Map<string, { event: string; body: unknown }>();
  private pumping = false;
  private closed = false;
  private overflowed = false;

  constructor(
    private readonly socket: FlowSocket,
    /** what the client is told when its buffer was dropped */
    private readonly resync: { event: string; body: unknown },
    private readonly capacity = 2000,
  ) {}

  offer(key: string, event: string, body: unknown): void {
    if (this.closed) return;
    this.waiting.delete(key); // re-inserted at the end: delivered in order of change
    if (this.waiting.size >= this.capacity) {
      this.waiting.clear();
      this.overflowed = true;
    } else {
      this.waiting.set(key, { event, body });
    }
    if (!this.pumping) {
      this.pumping = true;
      setImmediate(() => void this.pump());
    }
  }

  close(): void {
    this.closed = true;
    this.waiting.clear();
  }

  private async pump(): Promise<void> {
    try {
      while (!this.closed && this.socket.connected && (this.waiting.size || this.overflowed)) {
        await writable(this.socket);
        if (this.overflowed) {
          this.overflowed = false;
          this.socket.emit(this.resync.event, this.resync.body);
          continue;
        }
        const [key, item] = this.waiting.entries().next().value as [string, { event: string; body: unknown }];
        this.waiting.delete(key);
        this.socket.emit(item.event, item.body);
      }
    } finally {
      this.pumping = false;
    }
  }
}
