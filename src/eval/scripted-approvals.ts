// A scenario's scripted answers to approval requests: each request of the session (the n-th, 1-based,
// or any for a tool) is approved or rejected by the script after its delay, through the same
// approval service a person would use. A request the script does not answer waits out its timeout.
import type { ApprovalService } from '../approval/approval.service';
import { fireAt, type WallClockTimer } from '../common/wall-clock-timer';
import type { ScriptedApproval } from './scenario/scenario';

export function scriptApprovals(approvals: ApprovalService, sessionId: string, script: readonly ScriptedApproval[]): { stop: () => void } {
  if (!script.length) return { stop: () => {} };
  let requests = 0;
  const timers: WallClockTimer[] = [];
  // the service announces a request once it waits on it; the delay counts from the instant its
  // waitedMs counts from, so a recorded wait is never shorter than the script's after_ms
  const sub = approvals.requested$.subscribe((request) => {
    if (request.sessionId !== sessionId) return;
    const n = ++requests;
    const answer = script.find((a) => a.request === n) ?? script.find((a) => a.request === undefined && a.tool === request.name);
    if (!answer) return;
    const dueAt = request.requestedAt.getTime() + (answer.afterMs ?? 0);
    timers.push(fireAt(dueAt, () => approvals.decide(request.callId, answer.approve, 'script', answer.reason)));
  });
  return {
    stop: () => {
      sub.unsubscribe();
      timers.forEach((t) => t.cancel());
    },
  };
}
