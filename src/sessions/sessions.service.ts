// Sessions for the API and the WebSocket: list with filters, one session with everything recorded
// (and what waits on a person now), a message into a running session, a kill. A session recorded
// by another Loupe process can be read but not driven from here: that answers 409, naming why.
import { Injectable } from '@nestjs/common';
import { ApprovalService, type PendingApproval } from '../approval/approval.service';
import { JournalService } from '../journal/journal.service';
import { ConflictError, NotFoundError } from '../common/request-errors';
import { SessionQueryRepository, type SessionDetail, type SessionFilter, type SessionPage } from '../journal/session-query.repository';
import { ProcessManager } from '../process/process-manager.service';
import type { SessionHandle } from '../process/process-types';

const KILL_WAIT_MS = 5_000;

export interface SessionView extends SessionDetail {
  /** running in this Loupe process (so it can be sent messages, killed, approved) */
  live: boolean;
  pendingApprovals: PendingApproval[];
}

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionQueryRepository,
    private readonly processes: ProcessManager,
    private readonly approvals: ApprovalService,
    private readonly journal: JournalService,
  ) {}

  list(filter: SessionFilter): Promise<SessionPage> {
    return this.sessions.findSessions(filter);
  }

  async get(id: string): Promise<SessionView> {
    // its rows may still be on their way to Postgres
    const detail = await this.journal.readBack(() => this.sessions.getSessionDetail(id));
    if (!detail) throw new NotFoundError(`no session ${id}`);
    return { ...detail, live: Boolean(this.processes.get(id)), pendingApprovals: this.approvals.pending(id) };
  }

  /** Queued and journaled (user_message_queued); injected before the next iteration. */
  async sendMessage(id: string, text: string): Promise<{ queued: true; position: number }> {
    const handle = await this.running(id, 'send a message to');
    try {
      return { queued: true, position: handle.sendMessage(text) };
    } catch (e) {
      throw new ConflictError((e as Error).message);
    }
  }

  /** Kills the session and waits (briefly) for it to close its records. */
  async kill(id: string, reason = 'killed by a person'): Promise<{ sessionId: string; terminationReason: string | null }> {
    const handle = await this.running(id, 'kill');
    handle.kill(reason);
    const result = await Promise.race([handle.done, new Promise<null>((r) => setTimeout(() => r(null), KILL_WAIT_MS).unref())]);
    return { sessionId: id, terminationReason: result?.terminationReason ?? null };
  }

  private async running(id: string, what: string): Promise<SessionHandle> {
    const handle = this.processes.get(id);
    if (handle) return handle;
    const session = await this.sessions.getSession(id);
    if (!session) throw new NotFoundError(`no session ${id}`);
    if (session.status !== 'running')
      throw new ConflictError(`session ${id} has finished (${session.terminationReason}); cannot ${what} it`);
    throw new ConflictError(
      `session ${id} runs in another Loupe process (${session.ownerHost} pid ${session.ownerPid}); cannot ${what} it from here`,
    );
  }
}
