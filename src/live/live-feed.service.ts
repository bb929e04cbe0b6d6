// The live side of the journal: one subscription to everything the journal writes, fanned out to
// the sockets that follow a session (its events, transcript, tool outputs, approvals) or the
// session list. Handing an entry over is a map lookup and a push into the session's room, which
// sends each tick once to all its subscribers that are in step (session-room.ts), so the loop and
// the journal never wait on a socket. It also remembers the last seq (and message idx)
// appended per session, so a subscriber knows when Postgres has caught up with what this process
// recorded. The model's
// output as it streams reaches the same subscribers as llm:chunk, joined per tick, and only while
// someone follows the session: it never touches the journal.
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { ApprovalService } from '../approval/approval.service';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import type { JournalEntry } from '../journal/journal-entry';
import { isJournalEvent } from '../journal/journal-events';
import { JournalService } from '../journal/journal.service';
import { SessionQueryRepository } from '../journal/session-query.repository';
import { ProcessManager } from '../process/process-manager.service';
import { ModelStream, type ModelDelta, type StreamPlace } from '../sessions/model-stream';
import { CHUNK_TICK_MS, ChunkCoalescer } from './chunk-coalescer';
import type { FeedItem } from './feed-tick';
import {
  approvalRequired,
  liveEvent,
  liveIteration,
  liveMessage,
  liveSession,
  sessionError,
  toolCallOutcome,
  type LlmChunk,
} from './live-wire';
import { KeyedSubscription } from './keyed-subscription';
import { SessionRoom, type RoomCast } from './session-room';
import { DEFAULT_SUBSCRIPTION_LIMITS, SessionSubscription, type SubscriptionLimits, type SubscriptionSource } from './session-subscription';
import type { FlowSocket } from './socket-flow';

/** the longest a sessions:resync waits for the journal to write what was dropped (Postgres away: it goes anyway) */
const RESYNC_CATCH_UP_MS = 10_000;

/** sessions whose last appended seq is remembered (oldest forgotten first) */
const REMEMBERED_SESSIONS = 10_000;

/** one followed session's streamed output waiting for the end of its tick */
interface OpenStream {
  coalescer: ChunkCoalescer;
  timer?: NodeJS.Timeout;
}

/** what became of streamed pieces: seen, kept for a subscriber, and llm:chunk messages made of them */
export interface StreamStats {
  deltas: number;
  buffered: number;
  chunks: number;
}

@Injectable()
export class LiveFeed implements OnModuleDestroy, SubscriptionSource {
  private readonly bySession = new Map<string, SessionRoom>();
  private cast?: RoomCast;
  private readonly listSubscribers = new Set<KeyedSubscription>();
  private readonly appended = new Map<string, number>();
  private readonly messagesAppended = new Map<string, number>();
  private readonly traceUrlTemplate?: string;
  private readonly subscriptions: Subscription[];
  private readonly limits: SubscriptionLimits;
  private readonly streams = new Map<string, OpenStream>();
  private readonly stopStreaming: () => void;
  readonly streamStats: StreamStats = { deltas: 0, buffered: 0, chunks: 0 };
  /** how long a session's feed gathers before it goes out (LOUPE_LIVE_TICK_MS) */
  private readonly tickMs: number;

  constructor(
    private readonly journal: JournalService,
    approvals: ApprovalService,
    private readonly sessions: SessionQueryRepository,
    private readonly processes: ProcessManager,
    @Inject(LOUPE_CONFIG) config: LoupeConfig,
    stream: ModelStream,
  ) {
    this.traceUrlTemplate = config.api.traceUrlTemplate;
    this.tickMs = config.api.liveTickMs;
    this.limits = {
      ...DEFAULT_SUBSCRIPTION_LIMITS,
      capacity: config.api.liveBufferItems,
      pollMs: Math.max(5, Math.min(config.journal.flushIntervalMs, 100)),
    };
    this.subscriptions = [
      journal.entries$.subscribe((entry) => this.onEntry(entry)),
      approvals.requested$.subscribe((p) =>
        this.toSession(p.sessionId, { kind: 'emit', packet: ['tool:approval_required', approvalRequired(p)] }),
      ),
    ];
    this.stopStreaming = stream.listen((sessionId, delta, at) => this.onDelta(sessionId, delta, at));
  }

  /** The socket.io server, whose rooms carry each session's broadcasts (until then every subscriber is fed on its own). */
  attach(cast: RoomCast): void {
    this.cast = cast;
  }

  /**
   * afterMessageIdx: the last message the subscriber has (later ones are read back first); undefined: messages only as they come.
   * batch: live ticks arrive as one session:batch each.
   */
  subscribe(socket: FlowSocket, sessionId: string, afterSeq: number, afterMessageIdx?: number, batch = false): SessionSubscription {
    const sub = new SessionSubscription(sessionId, socket, afterSeq, this, this.limits, afterMessageIdx, batch);
    let room = this.bySession.get(sessionId);
    if (!room) {
      room = new SessionRoom(sessionId, () => this.cast, this.appended.get(sessionId), this.messagesAppended.get(sessionId), this.tickMs);
      this.bySession.set(sessionId, room);
    }
    room.add(sub);
    sub.start();
    return sub;
  }

  unsubscribe(sub: SessionSubscription): void {
    sub.close();
    const room = this.bySession.get(sub.sessionId);
    room?.remove(sub);
    if (room && !room.size) {
      room.close();
      this.bySession.delete(sub.sessionId);
      this.closeStream(sub.sessionId);
    }
  }

  subscribeList(socket: FlowSocket): KeyedSubscription {
    // the viewer answers a resync by reading its list again: the rows dropped must be in Postgres by then
    const caughtUp = () => this.journal.flush(RESYNC_CATCH_UP_MS).catch(() => undefined);
    const sub = new KeyedSubscription(socket, ['sessions:resync', { reason: 'overflow' }], 1000, caughtUp);
    this.listSubscribers.add(sub);
    return sub;
  }

  unsubscribeList(sub: KeyedSubscription): void {
    sub.close();
    this.listSubscribers.delete(sub);
  }

  /** sessions whose streamed output is being joined for subscribers right now */
  get openStreams(): number {
    return this.streams.size;
  }

  get subscriberCount(): number {
    let n = 0;
    for (const room of this.bySession.values()) n += room.size;
    return n;
  }

  /** subscribers in step with their session's room (fed by its broadcasts rather than their own queue) */
  get inStepCount(): number {
    let n = 0;
    for (const room of this.bySession.values()) n += room.inStep;
    return n;
  }

  // SubscriptionSource
  async backfill(sessionId: string, afterSeq: number, limit: number) {
    // a row of a type this version does not declare is left out (the subscriber is told of the gap)
    return (await this.sessions.eventsAfter(sessionId, afterSeq, limit)).filter(isJournalEvent).map(liveEvent);
  }

  appendedUpTo(sessionId: string): number | undefined {
    // what the room has sent on: the rest of the tick reaches the subscriber through the room
    return this.bySession.get(sessionId)?.marks.lastSeq ?? this.appended.get(sessionId);
  }

  async backfillMessages(sessionId: string, afterIdx: number, limit: number) {
    return (await this.sessions.messagesAfter(sessionId, afterIdx, limit)).map(liveMessage);
  }

  messagesAppendedUpTo(sessionId: string): number | undefined {
    return this.bySession.get(sessionId)?.marks.lastMessageIdx ?? this.messagesAppended.get(sessionId);
  }

  async runningElsewhere(sessionId: string): Promise<boolean> {
    if (this.processes.get(sessionId)) return false;
    return (await this.sessions.getSession(sessionId))?.status === 'running';
  }

  onModuleDestroy(): void {
    for (const s of this.subscriptions) s.unsubscribe();
    this.stopStreaming();
    for (const id of [...this.streams.keys()]) this.closeStream(id);
    for (const room of this.bySession.values()) room.close();
    for (const sub of this.listSubscribers) sub.close();
  }

  private onEntry(entry: JournalEntry): void {
    switch (entry.kind) {
      case 'event': {
        const { row } = entry;
        if (!row.sessionId) return;
        this.remember(row.sessionId, row.seq);
        const room = this.bySession.get(row.sessionId);
        if (!room) return;
        // what streamed before this event goes out before it (the session's last event ends its stream)
        this.flushStream(row.sessionId);
        if (row.type === 'session_finished') this.closeStream(row.sessionId);
        room.offer({ kind: 'event', event: liveEvent(row) });
        const error = sessionError(row);
        if (error) room.offer({ kind: 'emit', packet: ['agent:error', error] });
        return;
      }
      case 'message':
        this.remember(entry.row.sessionId, entry.row.idx, this.messagesAppended);
        // the streamed pieces of a reply go out before the reply itself
        this.flushStream(entry.row.sessionId);
        return this.toSession(entry.row.sessionId, { kind: 'message', message: liveMessage(entry.row) });
      case 'iteration':
        // a snapshot (the last one wins): its figures as they are known, for the session page
        return this.toSession(entry.row.sessionId, {
          kind: 'emit',
          packet: ['session:iteration', { sessionId: entry.row.sessionId, iteration: liveIteration(entry.row, this.traceUrlTemplate) }],
        });
      case 'message_compacted':
        return this.toSession(entry.sessionId, {
          kind: 'emit',
          packet: [
            'session:message_compacted',
            { sessionId: entry.sessionId, idx: entry.idx, compactedAt: entry.compactedAt.toISOString() },
          ],
        });
      case 'tool_call': {
        const outcome = this.bySession.has(entry.row.sessionId) ? toolCallOutcome(entry.row) : undefined;
        if (outcome) this.toSession(entry.row.sessionId, { kind: 'emit', packet: outcome });
        return;
      }
      case 'session': {
        if (!this.bySession.has(entry.row.id) && !this.listSubscribers.size) return;
        const session = liveSession(entry.row);
        this.toSession(entry.row.id, { kind: 'emit', packet: ['session:update', { session }] });
        for (const l of this.listSubscribers) l.offer(session.id, ['session:update', { session }]);
        return;
      }
      default:
        return;
    }
  }

  /** A streamed piece: kept only for a session someone follows, and sent at the end of its tick. */
  private onDelta(sessionId: string, delta: ModelDelta, at: StreamPlace): void {
    this.streamStats.deltas++;
    if (!this.bySession.has(sessionId)) return; // nobody follows it: nothing is kept
    this.streamStats.buffered++;
    let open = this.streams.get(sessionId);
    if (!open) this.streams.set(sessionId, (open = { coalescer: new ChunkCoalescer(sessionId) }));
    const closed = open.coalescer.add(delta, at);
    if (closed) this.sendChunk(closed);
    if (!open.timer) {
      open.timer = setTimeout(() => this.flushStream(sessionId), CHUNK_TICK_MS);
      open.timer.unref();
    }
  }

  private flushStream(sessionId: string): void {
    const open = this.streams.get(sessionId);
    if (!open) return;
    clearTimeout(open.timer);
    open.timer = undefined;
    const chunk = open.coalescer.take();
    if (chunk) this.sendChunk(chunk);
  }

  /** Forgets a session's stream (its end, or its last subscriber left): what waits is dropped. */
  private closeStream(sessionId: string): void {
    const open = this.streams.get(sessionId);
    if (!open) return;
    clearTimeout(open.timer);
    this.streams.delete(sessionId);
  }

  private sendChunk(chunk: LlmChunk): void {
    this.streamStats.chunks++;
    this.toSession(chunk.sessionId, { kind: 'emit', packet: ['llm:chunk', chunk] });
  }

  private toSession(sessionId: string, item: FeedItem): void {
    this.bySession.get(sessionId)?.offer(item);
  }

  private remember(sessionId: string, seq: number, marks: Map<string, number> = this.appended): void {
    if (!marks.has(sessionId) && marks.size >= REMEMBERED_SESSIONS) {
      marks.delete(marks.keys().next().value as string);
    }
    marks.set(sessionId, seq);
  }
}
