// One socket's view of the session list: each session's latest row as it changes (started, an
// iteration done, finished). Rows are coalesced per session — only the newest snapshot waits —
// and the set waiting is bounded: past it the buffer is dropped and the client told to re-read.
import type { LiveSession } from './live-wire';
import { writable, type FlowSocket } from './socket-flow';

export class SessionListSubscription {
  private readonly waiting = new Map<string, LiveSession>();
  private pumping = false;
  private closed = false;
  private overflowed = false;

  constructor(
    private readonly socket: FlowSocket,
    private readonly capacity = 1000,
  ) {}

  offer(session: LiveSession): void {
    if (this.closed) return;
    this.waiting.delete(session.id); // re-inserted at the end: delivered in order of change
    if (this.waiting.size >= this.capacity) {
      this.waiting.clear();
      this.overflowed = true;
    } else {
      this.waiting.set(session.id, session);
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
          this.socket.emit('sessions:resync', { reason: 'overflow' });
          continue;
        }
        const [id, session] = this.waiting.entries().next().value as [string, LiveSession];
        this.waiting.delete(id);
        this.socket.emit('session:update', { session });
      }
    } finally {
      this.pumping = false;
    }
  }
}
