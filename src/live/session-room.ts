// One followed session's fan-out. What the session brings during a tick (LOUPE_LIVE_TICK_MS) goes out
// once at its end: encoded once and broadcast to the socket.io room of the subscribers that are in
// step (server.to(room).emit), as one session:batch to those that asked for batches and as the
// usual events to the others. A subscriber is in step when it has delivered everything up to the
// last broadcast; one that is not (catching up from Postgres, or whose connection has a backlog)
// is outside the room and gets the tick's items in its own bounded queue, so a slow reader costs
// only its own connection, and comes back in once it has caught up.
import { batchOf, FeedTick, marksOf, packetsOf, type FeedItem } from './feed-tick';
import type { Packet, ServerEvent } from './live-wire';
import type { RoomOfSubscription, SessionSubscription } from './session-subscription';

/** Broadcast to a room (the socket.io server's `to(room).emit`). */
export interface RoomCast {
  emit<E extends ServerEvent>(room: string, packet: Packet<E>): void;
}

export class SessionRoom implements RoomOfSubscription {
  private readonly tick = new FeedTick();
  private readonly members = new Set<SessionSubscription>();
  private readonly outside = new Set<SessionSubscription>();
  /** members that take batches: none, and nothing is encoded as a batch */
  private batchMembers = 0;
  private timer?: NodeJS.Timeout;
  /** broadcasts sent (one per room and tick) */
  broadcasts = 0;

  constructor(
    readonly sessionId: string,
    /** the socket.io server once the gateway is up (undefined: every subscriber is fed on its own) */
    private readonly cast: () => RoomCast | undefined,
    /** the last event seq and message idx already out of the live stream (items after them come through here) */
    private lastSeq: number | undefined,
    private lastMessageIdx: number | undefined,
    private readonly tickMs: number,
  ) {}

  /** the rooms' names: event by event, and batched */
  get roomNames(): { each: string; batch: string } {
    return { each: `session:${this.sessionId}`, batch: `session:${this.sessionId}:batch` };
  }

  get size(): number {
    return this.members.size + this.outside.size;
  }

  /** subscribers in the room now */
  get inStep(): number {
    return this.members.size;
  }

  /** the last event seq (and message idx) that went out of this room: what a subscriber must have to join it */
  get marks(): { lastSeq?: number; lastMessageIdx?: number } {
    return { lastSeq: this.lastSeq, lastMessageIdx: this.lastMessageIdx };
  }

  add(sub: SessionSubscription): void {
    this.outside.add(sub);
    sub.attach(this);
  }

  remove(sub: SessionSubscription): void {
    if (this.members.delete(sub)) this.leave(sub);
    this.outside.delete(sub);
  }

  offer(item: FeedItem): void {
    this.tick.add(item);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.tickMs);
    this.timer.unref();
  }

  /** Sends what waits: one broadcast per room, then each outside subscriber's own copy of the items. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const items = this.tick.take();
    if (!items.length) return;
    const marks = marksOf(items);
    // a member whose connection has a backlog leaves: what follows waits in its own bounded queue
    for (const m of this.members) if (m.congested || !m.connected) this.demote(m);
    const cast = this.cast();
    if (cast && this.members.size) {
      const { each, batch } = this.roomNames;
      if (this.members.size > this.batchMembers) for (const p of packetsOf(this.sessionId, items)) cast.emit(each, p);
      if (this.batchMembers) cast.emit(batch, batchOf(this.sessionId, items));
      this.broadcasts++;
      for (const m of this.members) m.deliveredInRoom(marks);
    }
    if (marks.lastSeq !== undefined) this.lastSeq = marks.lastSeq;
    if (marks.lastMessageIdx !== undefined) this.lastMessageIdx = marks.lastMessageIdx;
    for (const s of this.outside) for (const item of items) s.offer(item);
  }

  /** An outside subscriber has delivered all it holds: it joins when that is exactly what went out. */
  settled(sub: SessionSubscription): void {
    if (!this.outside.has(sub) || this.lastSeq === undefined || !this.cast()) return;
    if (sub.deliveredUpTo !== this.lastSeq || sub.congested) return;
    const messages = sub.messagesUpTo;
    if (messages !== undefined && messages !== (this.lastMessageIdx ?? -1)) return;
    this.outside.delete(sub);
    this.members.add(sub);
    if (sub.batch) this.batchMembers++;
    sub.socketOf.join(sub.batch ? this.roomNames.batch : this.roomNames.each);
    sub.enterRoom();
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const m of [...this.members]) this.remove(m);
    this.outside.clear();
  }

  private demote(sub: SessionSubscription): void {
    this.members.delete(sub);
    this.leave(sub);
    this.outside.add(sub);
  }

  private leave(sub: SessionSubscription): void {
    if (sub.batch) this.batchMembers--;
    sub.socketOf.leave(sub.batch ? this.roomNames.batch : this.roomNames.each);
    sub.leaveRoom();
  }
}
