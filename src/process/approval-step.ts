// The approval half of a step (mcp-agent-technical-spec.md §5): the reply's calls are queued, and
// decided one at a time in call order — by the session's policy (allow, deny), or, for `ask`, by
// whoever answers the broker (a person, a script) or by the clock. A rejection skips that call only.
// Every request and decision is journaled with who decided and how long it waited.
import { ALLOW_ALL, decideApproval, permissionDeniedText } from '../approval/approval-policy';
import type { ApprovalDecider } from '../approval/approval-broker';
import { moveCall, nextPending, queueCalls, type ApprovalQueue } from '../approval/approval-queue';
import type { LlmToolCall } from '../provider/llm-types';
import type { LoopRuntime } from './loop-runtime';
import { replyRepeatPositions } from './policies/repeat-detector';

export interface ApprovedStep {
  queue: ApprovalQueue;
  /** time spent waiting for decisions (not the session's working time; each ask has counted its own) */
  waitedMs: number;
}

export async function decideApprovals(rt: LoopRuntime, iteration: number, calls: readonly LlmToolCall[]): Promise<ApprovedStep> {
  let queue = queueCalls(calls);
  let waitedMs = 0;
  const s = rt.settings;
  const doomLoops =
    s.repeatScope === 'reply' && s.doomLoop === 'ask' ? replyRepeatPositions(calls, s.repeatThreshold, s.callKey) : new Set<number>();
  for (let next = nextPending(queue); next; next = nextPending(queue)) {
    rt.throwIfAborted();
    const { call } = next;
    if (doomLoops.has(calls.indexOf(call))) {
      const doom = await askDoomLoop(rt, iteration, call, s.repeatThreshold);
      waitedMs += doom.waitedMs;
      if (!doom.approved) {
        queue = reject(rt, iteration, queue, call, 'doom loop denied');
        continue;
      }
    }
    const policy = decideApproval(rt.options.permissions ?? ALLOW_ALL, call.name);
    let approved = policy.decision === 'allow';
    let by: ApprovalDecider = 'policy';
    let reason: string | undefined = policy.decision === 'deny' ? 'denied by policy' : undefined;
    let waited = 0;
    if (policy.decision === 'ask') {
      const verdict = await ask(rt, iteration, {
        callId: call.id,
        name: call.name,
        args: call.arguments,
        queuePosition: next.queuePosition,
        totalInQueue: next.totalInQueue,
      });
      ({ approved, by, reason } = verdict);
      waited = verdict.waitedMs;
      waitedMs += waited;
    }
    // a session without a policy allows everything: nothing to record for those calls
    if (rt.options.permissions) {
      rt.record(
        'approval_decided',
        {
          callId: call.id,
          name: call.name,
          decision: approved ? 'allow' : 'deny',
          rule: policy.rule,
          by,
          ...(reason ? { reason } : {}),
          waitedMs: waited,
        },
        iteration,
      );
    }
    queue = moveCall(queue, call.id, approved ? 'approved' : 'rejected', reason);
    rt.recorder.toolCall({
      id: call.id,
      iteration,
      name: call.name,
      arguments: call.arguments,
      status: approved ? 'approved' : 'rejected',
      ...(approved ? {} : { error: permissionDeniedText(call.name, reason) }),
    });
  }
  return { queue, waitedMs };
}

function reject(rt: LoopRuntime, iteration: number, queue: ApprovalQueue, call: LlmToolCall, reason: string): ApprovalQueue {
  rt.recorder.toolCall({
    id: call.id,
    iteration,
    name: call.name,
    arguments: call.arguments,
    status: 'rejected',
    error: permissionDeniedText(call.name, reason),
  });
  return moveCall(queue, call.id, 'rejected', reason);
}

/** opencode's PermissionNext.ask({ permission: "doom_loop" }) before the repeated call runs. */
async function askDoomLoop(
  rt: LoopRuntime,
  iteration: number,
  call: LlmToolCall,
  count: number,
): Promise<{ approved: boolean; waitedMs: number }> {
  const callId = `doom_loop_${call.id}`;
  const verdict = await ask(rt, iteration, {
    callId,
    name: 'doom_loop',
    args: { tool: call.name, arguments: call.arguments, count },
    queuePosition: 1,
    totalInQueue: 1,
  });
  rt.record(
    'approval_decided',
    {
      callId,
      name: 'doom_loop',
      decision: verdict.approved ? 'allow' : 'deny',
      rule: 'doom_loop',
      by: verdict.by,
      ...(verdict.reason ? { reason: verdict.reason } : {}),
      waitedMs: verdict.waitedMs,
    },
    iteration,
  );
  return { approved: verdict.approved, waitedMs: verdict.waitedMs };
}

/**
 * One `ask`, through the session's broker: the request is journaled, then the wait for its answer —
 * counted here, once, on the iteration and the session (the only place an approval wait is counted).
 */
export async function ask(
  rt: LoopRuntime,
  iteration: number,
  request: { callId: string; name: string; args: Record<string, unknown>; queuePosition: number; totalInQueue: number },
) {
  rt.record('approval_requested', request, iteration);
  const verdict = await rt.options.approvals.request(
    { sessionId: rt.options.sessionId, ...request },
    { timeoutMs: rt.settings.approvalTimeoutMs, signal: rt.signal },
  );
  rt.waitedForApproval(iteration, verdict.waitedMs);
  rt.throwIfAborted();
  return verdict;
}
