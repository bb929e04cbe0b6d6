// The approvals waiting for a person or a script, across sessions. The loop asks through `request`
// (as an ApprovalBroker); the API, the viewer and scenario scripts answer through `decide`. An
// answer for a call nobody waits on is recorded (approval_unknown), never a crash; a session that
// ends takes its pending requests with it.
import { Injectable } from '@nestjs/common';
import { Subject } from 'rxjs';
import { NotFoundError } from '../common/request-errors';
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

export type DecideResult = { ok: true; request: PendingApproval } | { ok: false; error: 'unknown_call' };

@Injectable()
export class ApprovalService implements ApprovalBroker {
  private readonly waiting = new Map<string, Waiting>();
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
      return { ok: false, error: 'unknown_call' };
    }
    waiting.settle(approved, by, reason);
    return { ok: true, request: waiting.request };
  }

  /** A person's decision (API, viewer, WebSocket): an unknown call is a NotFoundError, after it is recorded. */
  decideByPerson(callId: string, approved: boolean, reason?: string): PendingApproval & { approved: boolean } {
    const result = this.decide(callId, approved, 'person', reason);
    if (!result.ok) throw new NotFoundError(`no tool call ${callId} is waiting for a decision`);
    return { ...result.request, approved };
  }

  pending(sessionId?: string): PendingApproval[] {
    return [...this.waiting.values()].map((w) => w.request).filter((r) => !sessionId || r.sessionId === sessionId);
  }
}
