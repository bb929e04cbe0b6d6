// The queue of one model reply's tool calls (mcp-agent-technical-spec.md §5): each call moves
// pending → approved | rejected → executing → completed | failed. Pure values: the loop asks for
// approvals one at a time in call order, runs the approved calls, and clears the queue before the
// results go back to the model.
import type { LlmToolCall } from '../provider/llm-types';

export type QueuedCallStatus = 'pending' | 'approved' | 'rejected' | 'executing' | 'completed' | 'failed';

export interface QueuedCall {
  call: LlmToolCall;
  status: QueuedCallStatus;
  /** why a call was rejected (policy, a person's reason, timeout) */
  reason?: string;
}

export type ApprovalQueue = readonly QueuedCall[];

/** Every call of the reply, pending, in call order. */
export function queueCalls(calls: readonly LlmToolCall[]): ApprovalQueue {
  return calls.map((call) => ({ call, status: 'pending' }));
}

const NEXT: Record<QueuedCallStatus, readonly QueuedCallStatus[]> = {
  pending: ['approved', 'rejected'],
  approved: ['executing'],
  rejected: [],
  executing: ['completed', 'failed'],
  completed: [],
  failed: [],
};

/** The queue with one call moved on; a move the lifecycle does not allow is a bug, and throws. */
export function moveCall(queue: ApprovalQueue, callId: string, status: QueuedCallStatus, reason?: string): ApprovalQueue {
  const at = queue.findIndex((q) => q.call.id === callId);
  if (at < 0) throw new Error(`no call ${callId} in this queue`);
  const from = queue[at].status;
  if (!NEXT[from].includes(status)) throw new Error(`call ${callId} cannot go from ${from} to ${status}`);
  return queue.map((q, i) => (i === at ? { ...q, status, ...(reason ? { reason } : {}) } : q));
}

/** The next call waiting for a decision, with its 1-based place in the queue and the queue's size. */
export function nextPending(queue: ApprovalQueue): { call: LlmToolCall; queuePosition: number; totalInQueue: number } | undefined {
  const at = queue.findIndex((q) => q.status === 'pending');
  return at < 0 ? undefined : { call: queue[at].call, queuePosition: at + 1, totalInQueue: queue.length };
}

export function callsWith(queue: ApprovalQueue, status: QueuedCallStatus): LlmToolCall[] {
  return queue.filter((q) => q.status === status).map((q) => q.call);
}
