// One tick of a followed session's feed: what the journal, the approvals and the model stream
// brought during it, kept in order, then sent as few packets as the wire allows. Consecutive
// events join into one session:events, and a snapshot (an iteration's row, the session's row)
// waits only in its newest state, at the place of its newest change. Pure state, no timers: the
// session's room decides when a tick ends.
import type { LiveEvent, LiveMessage, Packet, SessionBatchItem } from './live-wire';

export type FeedItem =
  | { kind: 'event'; event: LiveEvent }
  /** a transcript message: ordered by idx for a subscriber that tracks them, passed on as it comes otherwise */
  | { kind: 'message'; message: LiveMessage }
  | { kind: 'emit'; packet: SessionBatchItem };

/** What a tick carried, as a subscriber's cursors see it. */
export interface TickMarks {
  /** the seq of its last event (undefined: it had none) */
  lastSeq?: number;
  /** the idx of its last message (undefined: it had none) */
  lastMessageIdx?: number;
  /** it carried session_finished, a session's last event */
  finished: boolean;
}

/** A snapshot's identity: a newer one with the same key replaces it (undefined: not a snapshot). */
function snapshotKey(item: FeedItem): string | undefined {
  if (item.kind !== 'emit') return undefined;
  const [event, body] = item.packet;
  if (event === 'session:iteration') return `iteration:${body.iteration.idx}`;
  if (event === 'session:update') return `session:${body.session.id}`;
  return undefined;
}

export class FeedTick {
  private items: Array<FeedItem | undefined> = [];
  private readonly snapshots = new Map<string, number>();

  get pending(): boolean {
    return this.items.length > 0;
  }

  add(item: FeedItem): void {
    const key = snapshotKey(item);
    if (key !== undefined) {
      const earlier = this.snapshots.get(key);
      if (earlier !== undefined) this.items[earlier] = undefined;
      this.snapshots.set(key, this.items.length);
    }
    this.items.push(item);
  }

  /** What waits, in order (empty when nothing does); the tick starts again empty. */
  take(): FeedItem[] {
    const items = this.items.filter((i): i is FeedItem => i !== undefined);
    this.items = [];
    this.snapshots.clear();
    return items;
  }
}

export function marksOf(items: readonly FeedItem[]): TickMarks {
  const marks: TickMarks = { finished: false };
  for (const item of items) {
    if (item.kind === 'event') {
      marks.lastSeq = item.event.seq;
      if (item.event.type === 'session_finished') marks.finished = true;
    } else if (item.kind === 'message') marks.lastMessageIdx = item.message.idx;
  }
  return marks;
}

/** A tick's items as the events a subscriber receives one by one: consecutive events joined into one session:events. */
export function packetsOf(sessionId: string, items: readonly FeedItem[]): SessionBatchItem[] {
  const packets: SessionBatchItem[] = [];
  let run: LiveEvent[] | undefined;
  for (const item of items) {
    if (item.kind === 'event') {
      if (!run) packets.push(['session:events', { sessionId, events: (run = []) }]);
      run.push(item.event);
      continue;
    }
    run = undefined;
    packets.push(item.kind === 'message' ? ['session:message', { sessionId, message: item.message }] : item.packet);
  }
  return packets;
}

/** A tick's items as one session:batch (for subscribers that asked for batches). */
export function batchOf(sessionId: string, items: readonly FeedItem[]): Packet<'session:batch'> {
  return ['session:batch', { sessionId, items: packetsOf(sessionId, items) }];
}
