// One socket's feed of snapshots keyed by what they describe (a run, a trial, a row of the session
// list): only the newest snapshot per key waits, delivered in order of change, and the set waiting is
// bounded — past it the buffer is dropped and the client told to re-read. A slow reader slows nothing
// but itself. The re-read must find what was dropped, so the resync waits until the journal has
// written it (`caughtUp`): sent at once, it raced the journal's next batch and the list stayed stale.
import type { Packet } from './live-wire';
import { send, writable, type FlowSocket } from './socket-flow';

export class KeyedSubscription {
  private readonly waiting = new Map<string, Packet>();
  private pumping = false;
  private closed = false;
  private overflowed = false;

  constructor(
    private readonly socket: FlowSocket,
    /** what the client is told when its buffer was dropped */
    private readonly resync: Packet<'sessions:resync' | 'run:resync' | 'runs:resync'>,
    private readonly capacity = 2000,
    /** resolves once what was journaled before the call is in Postgres (never rejects) */
    private readonly caughtUp: () => Promise<void> = () => Promise.resolve(),
  ) {}

  offer(key: string, packet: Packet): void {
    if (this.closed) return;
    this.waiting.delete(key); // re-inserted at the end: delivered in order of change
    if (this.waiting.size >= this.capacity) {
      this.waiting.clear();
      this.overflowed = true;
    } else {
      this.waiting.set(key, packet);
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
          // everything dropped was appended before now; dropped again meanwhile, another resync follows
          this.overflowed = false;
          await this.caughtUp();
          if (this.closed || !this.socket.connected) break;
          send(this.socket, this.resync);
          continue;
        }
        const [key, packet] = this.waiting.entries().next().value as [string, Packet];
        this.waiting.delete(key);
        send(this.socket, packet);
      }
    } finally {
      this.pumping = false;
    }
  }
}
