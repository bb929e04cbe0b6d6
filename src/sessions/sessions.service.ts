// Sessions for the API and the WebSocket: list with filters, one session with everything recorded
// (and what waits on a person now, its trial's verdict and trace links), a message into a running session, a kill. A session recorded
// by another Loupe process can be read but not driven from here: that answers 409, naming why; an expired one 410.
import { Inject, Injectable } from '@nestjs/common';
import { ApprovalService, type PendingApproval } from '../approval/approval.service';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { JournalService } from '../journal/journal.service';
import { ConflictError, NotFoundError, SessionExpiredError } from '../common/request-errors';
import { SessionQueryRepository, type SessionDetail, type SessionFilter, type SessionPage } from '../journal/session-query.repository';
import { ProcessManager } from '../process/process-manager.service';
import type { SessionHandle } from '../process/process-types';
import { expiredMessage } from './session-expiry';
import { SessionJanitor } from './session-janitor.service';
import { sessionVerdict, traceUrl, type SessionVerdict } from './session-verdict';

const KILL_WAIT_MS = 5_000;

export interface SessionView extends Omit<SessionDetail, 'iterations'> {
  /** running in this Loupe process (so it can be sent messages, killed, approved) */
  live: boolean;
  pendingApprovals: PendingApproval[];
  /** each with its trace link (null without LOUPE_TRACE_URL_TEMPLATE) */
  iterations: Array<SessionDetail['iterations'][number] & { traceUrl: string | null }>;
  /** the highest message idx returned (-1: none): subscribe with `afterMessageIdx` set to it and no message is missed */
  messagesUpTo: number;
  /** the session's trace (null without LOUPE_TRACE_URL_TEMPLATE) */
  traceUrl: string | null;
  /** the trial it ran for, with its verdict (null: not a trial) */
  verdict: SessionVerdict | null;
}

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionQueryRepository,
    private readonly processes: ProcessManager,
    private readonly approvals: ApprovalService,
    private readonly journal: JournalService,
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly janitor: SessionJanitor,
  ) {}

  list(filter: SessionFilter): Promise<SessionPage> {
    return this.sessions.findSessions(filter);
  }

  async get(id: string): Promise<SessionView> {
    // its rows may still be on their way to Postgres
    const detail = await this.journal.readBack(() => this.sessions.getSessionDetail(id));
    if (!detail) throw new NotFoundError(`no session ${id}`);
    const trial = detail.session.trialId ? await this.sessions.trialOf(detail.session.trialId) : null;
    const template = this.config.api.traceUrlTemplate;
    return {
      ...detail,
      iterations: detail.iterations.map((i) => ({ ...i, traceUrl: traceUrl(template, i) })),
      messagesUpTo: detail.messages.reduce((max, m) => Math.max(max, m.idx), -1),
      traceUrl: traceUrl(template, detail.session),
      verdict: trial && sessionVerdict(trial, detail.session.config),
      live: Boolean(this.processes.get(id)),
      pendingApprovals: this.approvals.pending(id),
    };
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
    // expired: 410 while it is still closing, and for good after (its termination reason says so)
    if (this.janitor.expired(id)) throw new SessionExpiredError(id, expiredMessage(id));
    const handle = this.processes.get(id);
    if (handle) return handle;
    const session = await this.sessions.getSession(id);
    if (!session) throw new NotFoundError(`no session ${id}`);
    if (session.terminationReason === 'expired') throw new SessionExpiredError(id, expiredMessage(id));
    if (session.status !== 'running')
      throw new ConflictError(`session ${id} has finished (${session.terminationReason}); cannot ${what} it`);
    throw new ConflictError(
      `session ${id} runs in another Loupe process (${session.ownerHost} pid ${session.ownerPid}); cannot ${what} it from here`,
    );
  }
}
