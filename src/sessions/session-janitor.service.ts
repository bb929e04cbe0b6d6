// The idle-session janitor (mcp-agent-technical-spec.md §4, "Expired Session": JanitorService,
// "Container is pruned, history remains"). Sessions started over the API or the WebSocket are
// watched; anything recorded for one (an event, a message, a person's message or approval) is
// activity. Every sweep expires the sessions ./session-expiry.ts picks: their waiting approvals are
// remembered (a late decision is told the session expired) and they are killed as expired, which
// releases their tool processes and MCP servers (the launcher's cleanup) and keeps their history.
// The sweep timer runs only while a session is watched, and is cleared on shutdown.
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { ApprovalService } from '../approval/approval.service';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import type { JournalEntry } from '../journal/journal-entry';
import { JournalService } from '../journal/journal.service';
import { SessionExpiredReason } from '../process/expiry-reason';
import type { SessionHandle } from '../process/process-types';
import { expiredSessions, sweepIntervalMs, type ExpiredSession } from './session-expiry';

interface Watched {
  handle: SessionHandle;
  lastActivityAt: number;
}

/** expired session ids remembered in this process (the journal has them for good); past this the oldest are forgotten */
const MAX_REMEMBERED = 10_000;

@Injectable()
export class SessionJanitor implements OnModuleDestroy {
  private readonly logger = new Logger('Janitor');
  private readonly watched = new Map<string, Watched>();
  private readonly expiredIds = new Set<string>();
  private activity?: Subscription;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly journal: JournalService,
    private readonly approvals: ApprovalService,
  ) {}

  get idleTimeoutMs(): number {
    return this.config.sessions.idleTimeoutMs;
  }

  /** Watches a session until it ends (no-op when the limit is 0). */
  watch(handle: SessionHandle): void {
    if (!(this.idleTimeoutMs > 0)) return;
    this.watched.set(handle.sessionId, { handle, lastActivityAt: Date.now() });
    this.activity ??= this.journal.entries$.subscribe((e) => this.touch(e));
    this.timer ??= setInterval(() => this.sweep(), sweepIntervalMs(this.idleTimeoutMs)).unref();
    const unwatch = () => this.unwatch(handle.sessionId);
    void handle.done.then(unwatch, unwatch);
  }

  /** Whether this process expired the session (a finished one is also found by its termination reason). */
  expired(sessionId: string): boolean {
    return this.expiredIds.has(sessionId);
  }

  /** One sweep at `now`: the sessions expired by it. */
  sweep(now = Date.now()): ExpiredSession[] {
    const watched = [...this.watched].map(([sessionId, w]) => ({ sessionId, lastActivityAt: w.lastActivityAt }));
    const due = expiredSessions(watched, now, this.idleTimeoutMs);
    for (const e of due) this.expire(e);
    return due;
  }

  onModuleDestroy(): void {
    this.stop();
  }

  private expire(e: ExpiredSession): void {
    const w = this.watched.get(e.sessionId);
    if (!w) return;
    this.unwatch(e.sessionId);
    this.expiredIds.add(e.sessionId);
    if (this.expiredIds.size > MAX_REMEMBERED) this.expiredIds.delete(this.expiredIds.values().next().value as string);
    const approvals = this.approvals.markExpired(e.sessionId);
    this.logger.log(
      `session ${e.sessionId} expired after ${e.idleMs} ms idle (limit ${e.idleTimeoutMs} ms); ${approvals} approval(s) dropped`,
    );
    w.handle.kill(new SessionExpiredReason(e.idleMs, e.idleTimeoutMs));
  }

  private touch(entry: JournalEntry): void {
    const sessionId = sessionOf(entry);
    const w = sessionId ? this.watched.get(sessionId) : undefined;
    if (!w) return;
    // a finished session is not expired, even in the moment before its handle settles
    if (entry.kind === 'event' && entry.row.type === 'session_finished') this.unwatch(sessionId!);
    else w.lastActivityAt = Date.now();
  }

  private unwatch(sessionId: string): void {
    this.watched.delete(sessionId);
    if (!this.watched.size) this.stop();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.activity?.unsubscribe();
    this.activity = undefined;
  }
}

function sessionOf(entry: JournalEntry): string | null {
  switch (entry.kind) {
    case 'message':
    case 'iteration':
    case 'tool_call':
    case 'event':
      return entry.row.sessionId;
    case 'session':
      return entry.row.id;
    case 'message_compacted':
      return entry.sessionId;
    default:
      return null;
  }
}
