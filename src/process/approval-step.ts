// The approval half of a step (mcp-agent-technical-spec.md §5): the reply's calls are queued, and
// decided one at a time in call order — by the session's policy (allow, deny), or, for `ask`, by
// whoever answers the broker (a person, a script) or by the clock. A rejection skips that call only.
// Every request and decision is journaled with who decided and how long it waited.
import { ALLOW_ALL, decideApproval, permissionDeniedText } from '../approval/approval-policy';
import type { ApprovalDecider } from '../approval/approval-broker';
import { moveCall, nextPending, queueCalls, type ApprovalQueue } from '../approval/approval-queue';
import type { LlmToolCall } from '../provider/llm-types';
import type { LoopRuntime } from './loop-runtime';

export interface ApprovedStep {
  queue: ApprovalQueue;
  /** time spent waiting for decisions (not the session's working time) */
  waitedMs: number;
}

export async function decideApprovals(rt: LoopRuntime, iteration: number, calls: readonly LlmToolCall[]): Promise<ApprovedStep> {
  let queue = queueCalls(calls);
  let waitedMs = 0;
  for (let next = nextPending(queue); next; next = nextPending(queue)) {
    rt.throwIfAborted();
    const { call } = next;
    const policy = decideApproval(rt.options.permissions ?? ALLOW_ALL, call.name);
    let approved = policy.decision === 'allow';
    let by: ApprovalDecider = 'policy';
    let reason: string | undefined = policy.decision === 'deny' ? 'denied by policy' : undefined;
    let waited = 0;
    if (policy.decision === 'ask') {
      const verdict = await ask(rt, iteration, { callId: call.id, name: call.name, args: call.arguments, queuePosition: next.queuePosition, totalInQueue: next.totalInQueue });
      ({ approved, by, reason } = verdict);
      waited = verdict.waitedMs;
      waitedMs += waited;
    }
    // a session without a policy allows everything: nothing to record for those calls
    if (rt.options.permissions) {
      rt.record('approval_decided', { id: call.id, name: call.name, decision: approved ? 'allow' : 'deny', rule: policy.rule, by, ...(reason ? { reason } : {}), waitedMs: waited }, iteration);
    }
    queue = moveCall(queue, call.id, approved ? 'approved' : 'rejected', reason);
    rt.recorder.toolCall({
      id: call.id, iteration, name: call.name, arguments: call.arguments, status: approved ? 'approved' : 'rejected',
      ...(approved ? {} : { error: permissionDeniedText(call.name, reason) }),
    });
  }
  return { queue, waitedMs };
}

/** One `ask`, through the session's broker: the request is journaled, then the wait for its answer. */
export async function ask(rt: LoopRuntime, iteration: number, request: { callId: string; name: string; args: Record<string, unknown>; queuePosition: number; totalInQueue: number }) {
  rt.record('approval_requested', request, iteration);
  const verdict = await rt.options.approvals.request({ sessionId: rt.options.sessionId, ...request }, { timeoutMs: rt.settings.approvalTimeoutMs, signal: rt.signal });
  rt.throwIfAborted();
  return verdict;
}
