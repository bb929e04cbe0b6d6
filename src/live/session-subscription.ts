// One socket's subscription to one session's journal events: live and in order, resumable from a
// sequence number, with no gap and no duplicate. Events are delivered only as cursor + 1: whatever
// the live buffer cannot supply contiguously (the start, a reconnect, a gap, an overflow) is read
// back from Postgres first. Transcript messages get the same treatment by their idx when the
// subscriber says which it has (afterMessageIdx): one that landed between a page's read and its
// subscribe is read back, not lost. The journal hands items over synchronously and this class only queues
// them (bounded): a slow reader drops its buffer and catches up from Postgres instead of holding
// anything up.
import { BoundedQueue } from './bounded-queue';
import type { LiveEvent, LiveMessage, ServerEvents } from './live-wire';
import { writable, type FlowSocket } from './socket-flow';

export type FeedItem =
  | { kind: 'event'; event: LiveEvent }
  /** a transcript message: ordered by idx for a subscriber that tracks them, passed on as it comes otherwise */
  | { kind: 'message'; message: LiveMessage }
  | { kind: 'emit'; event: keyof ServerEvents; body: unknown };

export interface SubscriptionSource {
  /** stored events after `afterSeq`, in order, at most `limit` */
  backfill(sessionId: string, afterSeq: number, limit: number): Promise<LiveEvent[]>;
  /** the last seq this process appended for the session (undefined: none seen here) */
  appendedUpTo(sessionId: string): number | undefined;
  /** stored messages with idx above `afterIdx`, in order, at most `limit` */
  backfillMessages(sessionId: string, afterIdx: number, limit: number): Promise<LiveMessage[]>;
  /** the last message idx this process appended for the session (undefined: none seen here) */
  messagesAppendedUpTo(sessionId: string): number | undefined;
  /** the session runs in another Loupe process: its events arrive only through Postgres */
  runningElsewhere(sessionId: string): Promise<boolean>;
}

export interface SubscriptionLimits {
  /** undelivered items held per subscriber */
  capacity: number;
  /** between reads while Postgres has not caught up with what was appended (the journal's flush interval) */
  pollMs: number;
  /** give up waiting for Postgres to catch up after this long (report it; the next gap retries) */
  catchUpDeadlineMs: number;
  /** how often a session running in another process is read again */
  tailMs: number;
}

export const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = { capacity: 4096, pollMs: 25, catchUpDeadlineMs: 10_000, tailMs: 1_000 };

const PAGE = 1000;
const BATCH = 200;

export class SessionSubscription {
  /** the seq of the last event delivered */
  private cursor: number;
  /** the idx of the last message delivered; undefined: messages are not tracked (passed on as they come) */
  private messageCursor: number | undefined;
  private readonly queue: BoundedQueue<FeedItem>;
  private catchingUp = true;
  private overflowed = false;
  private pumping = false;
  private closed = false;
  /** session_finished, always a session's last event, has been delivered */
  private finishedDelivered = false;
  private tailTimer?: NodeJS.Timeout;
  /** items refused because the buffer was full (each overflow drops the buffer) */
  dropped = 0;
  resyncs = 0;

  constructor(
    readonly sessionId: string,
    private readonly socket: FlowSocket,
    afterSeq: number,
    private readonly source: SubscriptionSource,
    private readonly limits: SubscriptionLimits = DEFAULT_SUBSCRIPTION_LIMITS,
    afterMessageIdx?: number,
  ) {
    this.cursor = afterSeq;
    this.messageCursor = afterMessageIdx;
    this.queue = new BoundedQueue(limits.capacity);
  }

  get deliveredUpTo(): number {
    return this.cursor;
  }

  /** Its session has finished and everything for it is delivered: nothing more can come, so its slot can go. */
  get spent(): boolean {
    return this.finishedDelivered && !this.pumping && !this.queue.size;
  }

  /** Called synchronously by the feed for every item of this session: O(1), never waits. */
  offer(item: FeedItem): void {
    if (this.closed) return;
    if (!this.queue.push(item)) {
      this.dropped += this.queue.size + 1;
      this.queue.clear();
      this.overflowed = true;
    }
    this.schedule();
  }

  start(): void {
    this.schedule();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.tailTimer);
    this.queue.clear();
  }

  private schedule(): void {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    setImmediate(() => void this.pump());
  }

  private async pump(): Promise<void> {
    try {
      while (!this.closed && this.socket.connected) {
        if (this.overflowed || this.catchingUp) {
          await this.catchUp();
          continue;
        }
        if (!this.queue.size) break;
        await writable(this.socket);
        this.deliverQueued();
      }
    } catch (e) {
      this.socket.emit('error', { code: 'feed_failed', sessionId: this.sessionId, message: (e as Error).message });
    } finally {
      this.pumping = false;
    }
  }

  /** Emits the next queued item, or the run of queued events that continue the cursor. */
  private deliverQueued(): void {
    const head = this.queue.shift()!;
    if (head.kind === 'emit') {
      this.socket.emit(head.event, head.body);
      return;
    }
    if (head.kind === 'message') {
      this.deliverMessage(head.message);
      return;
    }
    const batch: LiveEvent[] = [];
    let item: FeedItem | undefined = head;
    for (;;) {
      if (item.kind === 'event') {
        const e = item.event;
        if (e.seq > this.cursor + 1) {
          // the live buffer skipped something (an overflow, a reconnect window): Postgres fills it
          this.catchingUp = true;
          break;
        }
        if (e.seq === this.cursor + 1) {
          batch.push(e);
          this.cursor = e.seq;
        }
      }
      if (batch.length >= BATCH || this.queue.peek()?.kind !== 'event') break;
      item = this.queue.shift()!;
    }
    if (batch.length) this.emitEvents(batch);
  }

  /** A live message: in idx order when tracked; one past a gap sends the subscription back to Postgres. */
  private deliverMessage(m: LiveMessage): void {
    if (this.messageCursor === undefined) {
      this.socket.emit('session:message', { sessionId: this.sessionId, message: m });
      return;
    }
    if (m.idx <= this.messageCursor) return;
    if (m.idx > this.messageCursor + 1) {
      this.catchingUp = true;
      return;
    }
    this.messageCursor = m.idx;
    this.socket.emit('session:message', { sessionId: this.sessionId, message: m });
  }

  /** Reads stored events (and tracked messages) after the cursors until the live buffer continues from there. */
  private async catchUp(): Promise<void> {
    if (this.overflowed) {
      this.overflowed = false;
      this.resyncs++;
      await writable(this.socket);
      this.socket.emit('session:resync', { sessionId: this.sessionId, afterSeq: this.cursor, reason: 'overflow' });
    }
    this.catchingUp = true;
    const deadline = Date.now() + this.limits.catchUpDeadlineMs;
    let failure: string | undefined;
    for (;;) {
      if (this.closed || !this.socket.connected) return;
      let rows: LiveEvent[];
      let messages: LiveMessage[] = [];
      try {
        rows = await this.source.backfill(this.sessionId, this.cursor, PAGE);
        if (this.messageCursor !== undefined) messages = await this.source.backfillMessages(this.sessionId, this.messageCursor, PAGE);
        failure = undefined;
      } catch (e) {
        rows = [];
        failure = (e as Error).message;
      }
      await this.deliverStoredMessages(messages);
      await this.deliverStored(rows);
      if (rows.length === PAGE || messages.length === PAGE) continue;
      if (this.continuesFromCursor() && this.messagesContinue()) break;
      if (Date.now() > deadline) {
        this.socket.emit('error', {
          code: 'backfill_incomplete',
          sessionId: this.sessionId,
          message: `events after ${this.cursor}${this.messageCursor === undefined ? '' : ` or messages after ${this.messageCursor}`} are not in Postgres yet${failure ? ` (${failure})` : ''}; they follow when it has them`,
        });
        break;
      }
      await new Promise((r) => setTimeout(r, failure ? Math.max(this.limits.pollMs, 500) : this.limits.pollMs));
    }
    this.catchingUp = false;
    if (this.source.appendedUpTo(this.sessionId) === undefined) await this.tailIfElsewhere();
  }

  /** The live buffer (or what this process appended) takes over from the cursor without a gap. */
  private continuesFromCursor(): boolean {
    const next = this.queue.find((i) => i.kind === 'event' && i.event.seq > this.cursor);
    if (next) return (next as { event: LiveEvent }).event.seq === this.cursor + 1;
    const appended = this.source.appendedUpTo(this.sessionId);
    return appended === undefined || appended <= this.cursor;
  }

  /** The live buffer (or what this process appended) continues the message cursor without a gap. */
  private messagesContinue(): boolean {
    const cursor = this.messageCursor;
    if (cursor === undefined) return true;
    const next = this.queue.find((i) => i.kind === 'message' && i.message.idx > cursor);
    if (next) return (next as { message: LiveMessage }).message.idx === cursor + 1;
    const appended = this.source.messagesAppendedUpTo(this.sessionId);
    return appended === undefined || appended <= cursor;
  }

  private async deliverStoredMessages(rows: LiveMessage[]): Promise<void> {
    for (const m of rows) {
      if (this.messageCursor === undefined || m.idx <= this.messageCursor) continue;
      await writable(this.socket);
      if (this.closed || !this.socket.connected) return;
      // a message Postgres refused leaves a hole in idx; what it has goes on
      this.messageCursor = m.idx;
      this.socket.emit('session:message', { sessionId: this.sessionId, message: m });
    }
  }

  private async deliverStored(rows: LiveEvent[]): Promise<void> {
    const fresh: LiveEvent[] = [];
    for (const e of rows) {
      if (e.seq <= this.cursor) continue;
      if (e.seq !== this.cursor + 1) {
        // Postgres refused those entries (journal_entry_rejected keeps them): say so, and go on
        this.socket.emit('error', {
          code: 'events_missing',
          sessionId: this.sessionId,
          message: `events ${this.cursor + 1}–${e.seq - 1} of this session were not recorded`,
        });
      }
      fresh.push(e);
      this.cursor = e.seq;
    }
    for (let i = 0; i < fresh.length; i += BATCH) {
      await writable(this.socket);
      if (this.closed || !this.socket.connected) return;
      this.emitEvents(fresh.slice(i, i + BATCH));
    }
  }

  private emitEvents(events: LiveEvent[]): void {
    if (events[events.length - 1].type === 'session_finished') this.finishedDelivered = true;
    this.socket.emit('session:events', { sessionId: this.sessionId, events });
  }

  /** A session another process runs reaches us only through Postgres: read it again while it runs. */
  private async tailIfElsewhere(): Promise<void> {
    if (this.closed || !(await this.source.runningElsewhere(this.sessionId).catch(() => false))) return;
    clearTimeout(this.tailTimer);
    this.tailTimer = setTimeout(() => {
      this.catchingUp = true;
      this.schedule();
    }, this.limits.tailMs);
  }
}
