// The approvals waiting for a person or a script, across sessions. The loop asks through `request`
// (as an ApprovalBroker); the API, the viewer and scenario scripts answer through `decide`. An
// answer for a call nobody waits on is recorded (approval_unknown), never a crash; a session that
// ends takes its pending requests with it.
import { Injectable } from '@nestjs/common';
import { Subject } from 'rxjs';
import { NotFoundError, SessionExpiredError } from '../common/request-errors';
import { HostRecorder } from '../journal/host-recorder';
import { JournalService } from '../journal/journal.service';
import type { ApprovalBroker, ApprovalDecider, ApprovalRequest, ApprovalVerdict } from './approval-broker';

export interface PendingApproval extends ApprovalRequest {
  requestedAt: Date;
  timeoutMs: number;
}

interface Waiting {
  request: PendingApproval;
  settle: (approved: boolean, by: ApprovalDecider, reason?: string) => void;
}

export type DecideResult =
  | { ok: true; request: PendingApproval }
  | { ok: false; error: 'unknown_call' }
  /** the call waited in a session the janitor expired */
  | { ok: false; error: 'session_expired'; sessionId: string };

/** expired sessions' call ids remembered for a clear answer; past this, the oldest are forgotten (then 404) */
const MAX_EXPIRED_CALLS = 10_000;

@Injectable()
export class ApprovalService implements ApprovalBroker {
  private readonly waiting = new Map<string, Waiting>();
  /** call id → session id, for calls that were waiting when their session expired */
  private readonly expiredCalls = new Map<string, string>();
  private readonly host: HostRecorder;
  /** requests once they wait for a decision (scenario scripts answer them) */
  readonly requested$ = new Subject<PendingApproval>();

  constructor(journal: JournalService) {
    this.host = new HostRecorder(journal);
  }

  request(request: ApprovalRequest, opts: { timeoutMs: number; signal: AbortSignal }): Promise<ApprovalVerdict> {
    if (this.waiting.has(request.callId)) throw new Error(`an approval for call ${request.callId} is already pending`);
    const pending: PendingApproval = { ...request, requestedAt: new Date(), timeoutMs: opts.timeoutMs };
    return new Promise<ApprovalVerdict>((resolve) => {
      // one instant for the request's requestedAt and its waitedMs (a scripted answer counts from it too)
      const started = pending.requestedAt.getTime();
      const settle = (approved: boolean, by: ApprovalDecider, reason?: string) => {
        if (!this.waiting.delete(request.callId)) return;
        clearTimeout(timer);
        opts.signal.removeEventListener('abort', onAbort);
        resolve({ approved, by, ...(reason ? { reason } : {}), waitedMs: Date.now() - started });
      };
      const timer = setTimeout(() => settle(false, 'timeout', `no decision within ${opts.timeoutMs} ms`), opts.timeoutMs);
      const onAbort = () => settle(false, 'session_end', 'the session ended');
      this.waiting.set(request.callId, { request: pending, settle });
      if (opts.signal.aborted) onAbort();
      else opts.signal.addEventListener('abort', onAbort, { once: true });
      this.requested$.next(pending);
    });
  }

  decide(callId: string, approved: boolean, by: Extract<ApprovalDecider, 'person' | 'script'>, reason?: string): DecideResult {
    const waiting = this.waiting.get(callId);
    if (!waiting) {
      this.host.event('approval_unknown', { callId, approved, by });
      const expiredSession = this.expiredCalls.get(callId);
      return expiredSession ? { ok: false, error: 'session_expired', sessionId: expiredSession } : { ok: false, error: 'unknown_call' };
    }
    waiting.settle(approved, by, reason);
    return { ok: true, request: waiting.request };
  }

  /** A person's decision (API, viewer, WebSocket): an unknown call is a NotFoundError, after it is recorded. */
  decideByPerson(callId: string, approved: boolean, reason?: string): PendingApproval & { approved: boolean } {
    const result = this.decide(callId, approved, 'person', reason);
    if (!result.ok && result.error === 'session_expired')
      throw new SessionExpiredError(result.sessionId, approvalExpiredMessage(callId, result.sessionId));
    if (!result.ok) throw new NotFoundError(`no tool call ${callId} is waiting for a decision`);
    return { ...result.request, approved };
  }

  /**
   * The janitor is about to end `sessionId`: its waiting calls are remembered, so a late decision
   * is told the session expired (the session's end then settles them). Returns how many waited.
   */
  markExpired(sessionId: string): number {
    const calls = this.pending(sessionId).map((r) => r.callId);
    for (const callId of calls) this.expiredCalls.set(callId, sessionId);
    for (const oldest of this.expiredCalls.keys()) {
      if (this.expiredCalls.size <= MAX_EXPIRED_CALLS) break;
      this.expiredCalls.delete(oldest);
    }
    return calls.length;
  }

  pending(sessionId?: string): PendingApproval[] {
    return [...this.waiting.values()].map((w) => w.request).filter((r) => !sessionId || r.sessionId === sessionId);
  }
}

export function approvalExpiredMessage(callId: string, sessionId: string): string {
  return `tool call ${callId} can no longer be decided: session ${sessionId} expired (idle past LOUPE_SESSION_IDLE_TIMEOUT_MS)`;
}
