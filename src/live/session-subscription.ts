// One socket's subscription to one session's journal events: live and in order, resumable from a
// sequence number, with no gap and no duplicate. Events are delivered only as cursor + 1: whatever
// the live buffer cannot supply contiguously (the start, a reconnect, a gap, an overflow) is read
// back from Postgres first. Transcript messages get the same treatment by their idx when the
// subscriber says which it has (afterMessageIdx): one that landed between a page's read and its
// subscribe is read back, not lost. The journal hands items over synchronously and this class only queues
// them (bounded): a slow reader drops its buffer and catches up from Postgres instead of holding
// anything up. Once it is in step with its session's room (session-room.ts), it joins it: the
// room's broadcasts then reach it, and its own queue stays empty until it falls behind again.
import { BoundedQueue } from './bounded-queue';
import type { FeedItem, TickMarks } from './feed-tick';
import type { LiveEvent, LiveMessage } from './live-wire';
import { congested, send, writable, type FlowSocket } from './socket-flow';

export type { FeedItem } from './feed-tick';

/** The room a subscription belongs to: told when the subscription has delivered all it holds. */
export interface RoomOfSubscription {
  settled(sub: SessionSubscription): void;
}

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
  /** the next read of Postgres that nothing else would start: a session running elsewhere, or one Postgres is behind on */
  private readAgainTimer?: NodeJS.Timeout;
  /** backfill_incomplete was said for the gap being caught up now (said once per gap) */
  private incompleteSaid = false;
  /** in the session's room: what the session brings reaches it by broadcast, nothing waits in its queue */
  private inRoom = false;
  private room?: RoomOfSubscription;
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
    /** receives live ticks as one session:batch each (the viewer) rather than event by event */
    readonly batch = false,
  ) {
    this.cursor = afterSeq;
    this.messageCursor = afterMessageIdx;
    this.queue = new BoundedQueue(limits.capacity);
  }

  get deliveredUpTo(): number {
    return this.cursor;
  }

  /** the idx of the last message delivered (undefined: messages are not tracked) */
  get messagesUpTo(): number | undefined {
    return this.messageCursor;
  }

  get connected(): boolean {
    return this.socket.connected && !this.closed;
  }

  /** its connection has a backlog: broadcasts would only pile up there */
  get congested(): boolean {
    return congested(this.socket);
  }

  get socketOf(): Pick<FlowSocket, 'join' | 'leave'> {
    return this.socket;
  }

  /** Belongs to `room`, which it tells whenever it has delivered everything it holds. */
  attach(room: RoomOfSubscription): void {
    this.room = room;
  }

  /** The room's broadcasts reach it from now on (the room checked that they continue its cursors). */
  enterRoom(): void {
    this.inRoom = true;
  }

  /** A broadcast reached it: its cursors move to the end of that tick. */
  deliveredInRoom(marks: TickMarks): void {
    if (marks.lastSeq !== undefined) this.cursor = marks.lastSeq;
    if (marks.lastMessageIdx !== undefined && this.messageCursor !== undefined) this.messageCursor = marks.lastMessageIdx;
    if (marks.finished) this.finishedDelivered = true;
  }

  /** Out of the room (it fell behind): what follows comes through its own bounded queue again. */
  leaveRoom(): void {
    this.inRoom = false;
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
    clearTimeout(this.readAgainTimer);
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
        if (!this.queue.size) {
          if (!this.inRoom && !this.closed && this.socket.connected) this.room?.settled(this);
          break;
        }
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
      send(this.socket, head.packet);
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
    clearTimeout(this.readAgainTimer);
    // the deadline is for Postgres lacking what was appended: time spent reading rows and waiting for
    // the socket to take them is progress (after a stalled reader resumes, its first read is not its last)
    let deadline = Date.now() + this.limits.catchUpDeadlineMs;
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
      if (rows.length || messages.length) deadline = Date.now() + this.limits.catchUpDeadlineMs;
      if (rows.length === PAGE || messages.length === PAGE) continue;
      if (this.continuesFromCursor() && this.messagesContinue()) {
        this.incompleteSaid = false;
        break;
      }
      if (Date.now() > deadline) {
        if (!this.incompleteSaid)
          this.socket.emit('error', {
            code: 'backfill_incomplete',
            sessionId: this.sessionId,
            message: `events after ${this.cursor}${this.messageCursor === undefined ? '' : ` or messages after ${this.messageCursor}`} are not in Postgres yet${failure ? ` (${failure})` : ''}; they follow when it has them`,
          });
        this.incompleteSaid = true;
        // nothing new may come to wake it (a finished session): it reads again anyway
        this.readAgainLater();
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

  /** Catches up from Postgres again in `tailMs`, whether or not anything new comes meanwhile. */
  private readAgainLater(): void {
    clearTimeout(this.readAgainTimer);
    this.readAgainTimer = setTimeout(() => {
      this.catchingUp = true;
      this.schedule();
    }, this.limits.tailMs);
  }

  /** A session another process runs reaches us only through Postgres: read it again while it runs. */
  private async tailIfElsewhere(): Promise<void> {
    if (this.closed || !(await this.source.runningElsewhere(this.sessionId).catch(() => false))) return;
    this.readAgainLater();
  }
}
