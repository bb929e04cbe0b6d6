// A scenario's scripted answers to approval requests: each request of the session (the n-th, 1-based,
// or any for a tool) is approved or rejected by the script after its delay, through the same
// approval service a person would use. A request the script does not answer waits out its timeout.
import type { Observable } from 'rxjs';
import type { ApprovalService } from '../approval/approval.service';
import type { JournalEntry } from '../journal/journal-entry';
import type { ScriptedApproval } from './scenario/scenario';

export function scriptApprovals(
  entries$: Observable<JournalEntry>,
  sessionId: string,
  script: readonly ScriptedApproval[],
  approvals: ApprovalService,
): { stop: () => void } {
  if (!script.length) return { stop: () => {} };
  let requests = 0;
  const timers: NodeJS.Timeout[] = [];
  const sub = entries$.subscribe((entry) => {
    if (entry.kind !== 'event' || entry.row.sessionId !== sessionId || entry.row.type !== 'approval_requested') return;
    const n = ++requests;
    const { callId, name } = entry.row.payload as { callId: string; name: string };
    const answer = script.find((a) => a.request === n) ?? script.find((a) => a.request === undefined && a.tool === name);
    if (!answer) return;
    // after the request is journaled and the loop waits on it (the event is fanned out before the request is registered)
    timers.push(setTimeout(() => approvals.decide(callId, answer.approve, 'script', answer.reason), answer.afterMs ?? 0));
  });
  return {
    stop: () => {
      sub.unsubscribe();
      timers.forEach(clearTimeout);
    },
  };
}
