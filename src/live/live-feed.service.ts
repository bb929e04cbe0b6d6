// The live side of the journal: one subscription to everything the journal writes, fanned out to
// the sockets that follow a session (its events, transcript, tool outputs, approvals) or the
// session list. Handing an entry over is a map lookup and a bounded push per subscriber, so the
// loop and the journal never wait on a socket. It also remembers the last seq appended per session,
// so a subscriber knows when Postgres has caught up with what this process recorded.
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { ApprovalService } from '../approval/approval.service';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import type { JournalEntry } from '../journal/journal-entry';
import { JournalService } from '../journal/journal.service';
import { SessionQueryRepository } from '../journal/session-query.repository';
import { ProcessManager } from '../process/process-manager.service';
import { approvalRequired, liveEvent, liveMessage, liveSession, sessionError, toolCallOutcome } from './live-wire';
import { SessionListSubscription } from './session-list-subscription';
import {
  DEFAULT_SUBSCRIPTION_LIMITS,
  SessionSubscription,
  type FeedItem,
  type SubscriptionLimits,
  type SubscriptionSource,
} from './session-subscription';
import type { FlowSocket } from './socket-flow';

/** sessions whose last appended seq is remembered (oldest forgotten first) */
const REMEMBERED_SESSIONS = 10_000;

@Injectable()
export class LiveFeed implements OnModuleDestroy, SubscriptionSource {
  private readonly bySession = new Map<string, Set<SessionSubscription>>();
  private readonly listSubscribers = new Set<SessionListSubscription>();
  private readonly appended = new Map<string, number>();
  private readonly subscriptions: Subscription[];
  private readonly limits: SubscriptionLimits;

  constructor(
    journal: JournalService,
    approvals: ApprovalService,
    private readonly sessions: SessionQueryRepository,
    private readonly processes: ProcessManager,
    @Inject(LOUPE_CONFIG) config: LoupeConfig,
  ) {
    this.limits = {
      ...DEFAULT_SUBSCRIPTION_LIMITS,
      capacity: config.api.liveBufferItems,
      pollMs: Math.max(5, Math.min(config.journal.flushIntervalMs, 100)),
    };
    this.subscriptions = [
      journal.entries$.subscribe((entry) => this.onEntry(entry)),
      approvals.requested$.subscribe((p) =>
        this.toSession(p.sessionId, { kind: 'emit', event: 'tool:approval_required', body: approvalRequired(p) }),
      ),
    ];
  }

  subscribe(socket: FlowSocket, sessionId: string, afterSeq: number): SessionSubscription {
    const sub = new SessionSubscription(sessionId, socket, afterSeq, this, this.limits);
    let set = this.bySession.get(sessionId);
    if (!set) this.bySession.set(sessionId, (set = new Set()));
    set.add(sub);
    sub.start();
    return sub;
  }

  unsubscribe(sub: SessionSubscription): void {
    sub.close();
    const set = this.bySession.get(sub.sessionId);
    set?.delete(sub);
    if (set && !set.size) this.bySession.delete(sub.sessionId);
  }

  subscribeList(socket: FlowSocket): SessionListSubscription {
    const sub = new SessionListSubscription(socket);
    this.listSubscribers.add(sub);
    return sub;
  }

  unsubscribeList(sub: SessionListSubscription): void {
    sub.close();
    this.listSubscribers.delete(sub);
  }

  get subscriberCount(): number {
    let n = 0;
    for (const set of this.bySession.values()) n += set.size;
    return n;
  }

  // SubscriptionSource
  async backfill(sessionId: string, afterSeq: number, limit: number) {
    return (await this.sessions.eventsAfter(sessionId, afterSeq, limit)).map(liveEvent);
  }

  appendedUpTo(sessionId: string): number | undefined {
    return this.appended.get(sessionId);
  }

  async runningElsewhere(sessionId: string): Promise<boolean> {
    if (this.processes.get(sessionId)) return false;
    return (await this.sessions.getSession(sessionId))?.status === 'running';
  }

  onModuleDestroy(): void {
    for (const s of this.subscriptions) s.unsubscribe();
    for (const set of this.bySession.values()) for (const sub of set) sub.close();
    for (const sub of this.listSubscribers) sub.close();
  }

  private onEntry(entry: JournalEntry): void {
    switch (entry.kind) {
      case 'event': {
        const { row } = entry;
        if (!row.sessionId) return;
        this.remember(row.sessionId, row.seq);
        const subs = this.bySession.get(row.sessionId);
        if (!subs) return;
        const item: FeedItem = { kind: 'event', event: liveEvent(row) };
        const error = sessionError(row);
        for (const s of subs) {
          s.offer(item);
          if (error) s.offer({ kind: 'emit', event: 'agent:error', body: error });
        }
        return;
      }
      case 'message':
        return this.toSession(entry.row.sessionId, {
          kind: 'emit',
          event: 'session:message',
          body: { sessionId: entry.row.sessionId, message: liveMessage(entry.row) },
        });
      case 'message_compacted':
        return this.toSession(entry.sessionId, {
          kind: 'emit',
          event: 'session:message_compacted',
          body: { sessionId: entry.sessionId, idx: entry.idx, compactedAt: entry.compactedAt.toISOString() },
        });
      case 'tool_call': {
        const outcome = this.bySession.has(entry.row.sessionId) ? toolCallOutcome(entry.row) : undefined;
        if (outcome) this.toSession(entry.row.sessionId, { kind: 'emit', event: outcome.event, body: outcome.body });
        return;
      }
      case 'session': {
        if (!this.bySession.has(entry.row.id) && !this.listSubscribers.size) return;
        const session = liveSession(entry.row);
        this.toSession(entry.row.id, { kind: 'emit', event: 'session:update', body: { session } });
        for (const l of this.listSubscribers) l.offer(session);
        return;
      }
      default:
        return;
    }
  }

  private toSession(sessionId: string, item: FeedItem): void {
    const subs = this.bySession.get(sessionId);
    if (subs) for (const s of subs) s.offer(item);
  }

  private remember(sessionId: string, seq: number): void {
    if (!this.appended.has(sessionId) && this.appended.size >= REMEMBERED_SESSIONS) {
      this.appended.delete(this.appended.keys().next().value as string);
    }
    this.appended.set(sessionId, seq);
  }
}
