import type { LiveEvent, LiveMessage, ServerEvent, ServerEvents } from './live-wire';
import { SessionSubscription, type SubscriptionSource } from './session-subscription';
import { HIGH_WATER_PACKETS, type FlowSocket } from './socket-flow';

const ev = (seq: number): LiveEvent => ({
  seq,
  type: 'iteration_started',
  iteration: seq,
  payload: { purpose: 'step', contextMessages: 0 },
  createdAt: '',
  traceId: 't',
  spanId: 's',
});

const msg = (idx: number): LiveMessage => ({
  idx,
  role: 'assistant',
  kind: 'assistant',
  content: `m${idx}`,
  toolName: null,
  toolCallId: null,
  toolCalls: null,
  iteration: idx,
  compactedAt: null,
  createdAt: '',
});

class FakeSocket implements FlowSocket {
  connected = true;
  emitted: Array<{ event: string; body: unknown }> = [];
  private drains: Array<() => void> = [];
  readonly conn = {
    writeBuffer: [] as unknown[],
    on: (_e: 'drain', l: () => void) => this.drains.push(l),
    off: (_e: 'drain', l: () => void) => (this.drains = this.drains.filter((d) => d !== l)),
  };
  rooms = new Set<string>();
  emit<E extends ServerEvent>(event: E, body: ServerEvents[E]): boolean {
    this.emitted.push({ event, body });
    return true;
  }
  join(room: string): void {
    this.rooms.add(room);
  }
  leave(room: string): void {
    this.rooms.delete(room);
  }
  congest(on: boolean): void {
    this.conn.writeBuffer.length = on ? HIGH_WATER_PACKETS : 0;
    if (!on) for (const d of [...this.drains]) d();
  }
  /** every delivered event seq, in delivery order */
  seqs(): number[] {
    return this.emitted
      .filter((e) => e.event === 'session:events')
      .flatMap((e) => (e.body as { events: LiveEvent[] }).events.map((x) => x.seq));
  }
  /** every delivered message idx, in delivery order */
  idxs(): number[] {
    return this.emitted.filter((e) => e.event === 'session:message').map((e) => (e.body as { message: LiveMessage }).message.idx);
  }
  count(event: string): number {
    return this.emitted.filter((e) => e.event === event).length;
  }
}

/** Postgres holds `stored` events; this process appended up to `appended`. */
class FakeSource implements SubscriptionSource {
  stored = 0;
  appended: number | undefined = undefined;
  elsewhere = false;
  reads = 0;
  async backfill(_id: string, afterSeq: number, limit: number) {
    this.reads++;
    const out: LiveEvent[] = [];
    for (let s = afterSeq + 1; s < this.stored && out.length < limit; s++) out.push(ev(s));
    return out;
  }
  appendedUpTo() {
    return this.appended;
  }
  /** Postgres holds messages 0 … storedMessages-1; this process appended up to messagesAppended */
  storedMessages = 0;
  messagesAppended: number | undefined = undefined;
  async backfillMessages(_id: string, afterIdx: number, limit: number) {
    const out: LiveMessage[] = [];
    for (let i = afterIdx + 1; i < this.storedMessages && out.length < limit; i++) out.push(msg(i));
    return out;
  }
  messagesAppendedUpTo() {
    return this.messagesAppended;
  }
  async runningElsewhere() {
    return this.elsewhere;
  }
}

const limits = { capacity: 8, pollMs: 2, catchUpDeadlineMs: 500, tailMs: 5 };
// The subscription runs on timers (its pump's setImmediate, the poll and tail intervals, the
// writable recheck) and promises (the sources'): with fake timers, `settle` runs every timer due
// within `ms` and the promise work each one starts, so what is delivered by then is exact.
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());
const settle = (ms = 30) => jest.advanceTimersByTimeAsync(ms);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('SessionSubscription', () => {
  it('backfills what Postgres has, then continues live without a duplicate', async () => {
    const socket = new FakeSocket();
    const source = Object.assign(new FakeSource(), { stored: 5, appended: 6 });
    const sub = new SessionSubscription('s', socket, -1, source, limits);
    // seq 5 and 6 were appended before the subscription's reads caught up: 5 is only in the live buffer
    sub.offer({ kind: 'event', event: ev(4) });
    sub.offer({ kind: 'event', event: ev(5) });
    sub.start();
    sub.offer({ kind: 'event', event: ev(6) });
    await settle();
    expect(socket.seqs()).toEqual(range(0, 6));
    sub.offer({ kind: 'event', event: ev(7) });
    await settle();
    expect(socket.seqs()).toEqual(range(0, 7));
  });

  it('resumes after a given seq: nothing at or before it is sent again', async () => {
    const socket = new FakeSocket();
    const source = Object.assign(new FakeSource(), { stored: 10, appended: 9 });
    new SessionSubscription('s', socket, 6, source, limits).start();
    await settle(100); // what is due by then has run: nothing more comes
    expect(socket.seqs()).toEqual([7, 8, 9]);
  });

  it('waits for Postgres to hold what was appended before the live buffer takes over', async () => {
    const socket = new FakeSocket();
    const source = Object.assign(new FakeSource(), { stored: 3, appended: 5 });
    const sub = new SessionSubscription('s', socket, -1, source, limits);
    sub.start();
    await settle();
    expect(socket.seqs()).toEqual([0, 1, 2]);
    source.stored = 6; // the journal wrote 3..5
    await settle();
    expect(socket.seqs()).toEqual(range(0, 5));
    sub.offer({ kind: 'event', event: ev(6) });
    await settle();
    expect(socket.seqs()).toEqual(range(0, 6));
  });

  it('fills a gap in the live buffer from Postgres', async () => {
    const socket = new FakeSocket();
    const source = Object.assign(new FakeSource(), { stored: 2, appended: 1 });
    const sub = new SessionSubscription('s', socket, -1, source, limits);
    sub.start();
    await settle();
    expect(socket.seqs()).toEqual(range(0, 1));
    // 2 and 3 never reached this subscriber's buffer; 4 did
    source.appended = 4;
    source.stored = 5;
    sub.offer({ kind: 'event', event: ev(4) });
    await settle();
    expect(socket.seqs()).toEqual(range(0, 4));
  });

  it('a reader that does not read: its buffer is dropped, not grown, and it resynchronises from Postgres', async () => {
    const socket = new FakeSocket();
    const source = Object.assign(new FakeSource(), { stored: 0, appended: undefined as number | undefined });
    const sub = new SessionSubscription('s', socket, -1, source, limits);
    sub.start();
    await settle();
    socket.congest(true);
    for (let s = 0; s < 100; s++) {
      source.appended = s;
      sub.offer({ kind: 'event', event: ev(s) });
      sub.offer({ kind: 'emit', packet: ['session:message_compacted', { sessionId: 's', idx: s, compactedAt: '' }] });
    }
    expect(sub.dropped).toBeGreaterThan(0);
    source.stored = 100; // the journal wrote everything meanwhile
    socket.congest(false);
    await settle();
    expect(socket.seqs()).toEqual(range(0, 99));
    expect(socket.count('session:resync')).toBeGreaterThanOrEqual(1);
    expect(socket.emitted.find((e) => e.event === 'session:resync')!.body).toEqual({ sessionId: 's', afterSeq: -1, reason: 'overflow' });
  });

  it('messages after the given idx: read back while Postgres catches up, then live, each once and in order', async () => {
    const socket = new FakeSocket();
    // the page read messages 0..2; 3 is in Postgres, 4 was appended (journaled) but not written yet
    const source = Object.assign(new FakeSource(), { stored: 1, appended: 0, storedMessages: 4, messagesAppended: 4 });
    const sub = new SessionSubscription('s', socket, -1, source, limits, 2);
    sub.start();
    await settle(100); // what is due by then has run: nothing more comes
    expect(socket.idxs()).toEqual([3]); // 4 is not in Postgres and its live item went out before this subscriber came
    source.storedMessages = 5; // the journal wrote it
    await settle();
    expect(socket.idxs()).toEqual([3, 4]);
    sub.offer({ kind: 'message', message: msg(4) }); // a duplicate: not sent again
    sub.offer({ kind: 'message', message: msg(5) });
    await settle(100); // what is due by then has run: nothing more comes
    expect(socket.idxs()).toEqual([3, 4, 5]);
    // a gap in the live buffer (7 came, 6 did not): Postgres fills it
    source.messagesAppended = 7;
    source.storedMessages = 8;
    sub.offer({ kind: 'message', message: msg(7) });
    await settle();
    expect(socket.idxs()).toEqual([3, 4, 5, 6, 7]);
    expect(socket.emitted.find((e) => e.event === 'session:message')!.body).toEqual({ sessionId: 's', message: msg(3) });
  });

  it('without afterMessageIdx, messages pass as they come and none is read back', async () => {
    const socket = new FakeSocket();
    const source = Object.assign(new FakeSource(), { stored: 1, appended: 0, storedMessages: 4, messagesAppended: 4 });
    let reads = 0;
    source.backfillMessages = async () => {
      reads++;
      return [];
    };
    const sub = new SessionSubscription('s', socket, -1, source, limits);
    sub.start();
    sub.offer({ kind: 'message', message: msg(9) });
    await settle();
    expect(socket.idxs()).toEqual([9]);
    expect(reads).toBe(0);
  });

  it('emits nothing while the socket is congested', async () => {
    const socket = new FakeSocket();
    const source = Object.assign(new FakeSource(), { stored: 0, appended: -1 });
    const sub = new SessionSubscription('s', socket, -1, source, limits);
    sub.start();
    await settle();
    socket.congest(true);
    source.appended = 2;
    for (const s of [0, 1, 2]) sub.offer({ kind: 'event', event: ev(s) });
    await settle(60);
    expect(socket.seqs()).toEqual([]);
    socket.congest(false);
    await settle();
    expect(socket.seqs()).toEqual(range(0, 2));
  });

  it('Postgres behind past the deadline: said once, then read again until it has them, with nothing new to wake it', async () => {
    // a finished session offers nothing more: without reading again, the subscriber would wait for ever
    const socket = new FakeSocket();
    const source = Object.assign(new FakeSource(), { stored: 2, appended: 4 });
    new SessionSubscription('s', socket, -1, source, limits).start();
    await settle(limits.catchUpDeadlineMs + 50);
    expect(socket.seqs()).toEqual([0, 1]);
    expect(socket.emitted.filter((e) => e.event === 'error').map((e) => (e.body as { code: string }).code)).toEqual([
      'backfill_incomplete',
    ]);
    // still behind through a second deadline: not said again
    await settle(limits.catchUpDeadlineMs + 50);
    expect(socket.count('error')).toBe(1);
    source.stored = 5; // the journal wrote 2..4
    await settle(limits.catchUpDeadlineMs + 50);
    expect(socket.seqs()).toEqual(range(0, 4));
    expect(socket.count('error')).toBe(1);
  });

  it('time spent waiting for a congested socket does not count against the catch-up deadline', async () => {
    const socket = new FakeSocket();
    const source = Object.assign(new FakeSource(), { stored: 3, appended: 5 });
    socket.congest(true);
    new SessionSubscription('s', socket, -1, source, limits).start();
    // the first rows wait for the socket far longer than the deadline (a reader that stopped reading)
    await settle(limits.catchUpDeadlineMs * 3);
    expect(socket.seqs()).toEqual([]);
    socket.congest(false);
    await settle();
    expect(socket.seqs()).toEqual(range(0, 2));
    source.stored = 6; // the journal writes the rest soon after
    await settle();
    expect(socket.seqs()).toEqual(range(0, 5));
    expect(socket.count('error')).toBe(0);
  });

  it('reports events Postgres never got, and goes on', async () => {
    const socket = new FakeSocket();
    const source = new FakeSource();
    source.backfill = async (_id, after) => (after < 0 ? [ev(0), ev(1), ev(4), ev(5)] : []);
    source.appended = 5;
    new SessionSubscription('s', socket, -1, source, limits).start();
    await settle();
    expect(socket.seqs()).toEqual([0, 1, 4, 5]);
    expect(socket.emitted.find((e) => e.event === 'error')!.body).toEqual(expect.objectContaining({ code: 'events_missing' }));
  });

  it('reads a session another process runs again until it stops; stops on close', async () => {
    const socket = new FakeSocket();
    const source = Object.assign(new FakeSource(), { stored: 2, elsewhere: true });
    const sub = new SessionSubscription('s', socket, -1, source, limits);
    sub.start();
    await settle();
    expect(socket.seqs()).toEqual(range(0, 1));
    source.stored = 4;
    await settle();
    expect(socket.seqs()).toEqual(range(0, 3));
    source.elsewhere = false;
    source.stored = 5;
    await settle();
    expect(socket.seqs()).toEqual(range(0, 4));
    const reads = source.reads;
    await settle(50);
    expect(source.reads).toBe(reads);
    sub.close();
    sub.offer({ kind: 'event', event: ev(5) });
    await settle();
    expect(socket.seqs()).toEqual(range(0, 4));
  });
});
