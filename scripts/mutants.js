// The named mutants of the loop and approval core that `scripts/mutation-check.js` applies, one at a
// time, to a copy of the tree. Each is a small, exact text replacement (`edits`, in one `file`) that
// a real bug could make, with the test files that must fail on it (`tests`). A mutant whose text is
// no longer in its file is reported as stale: update the mutant with the code it targets.
'use strict';

const UNIT = {
  approvalQueue: 'src/approval/approval-queue.spec.ts',
  maxIterations: 'src/process/policies/max-iterations.spec.ts',
  repeat: 'src/process/policies/repeat-detector.spec.ts',
  sameTool: 'src/process/policies/same-tool-detector.spec.ts',
  errorRepeat: 'src/process/policies/error-repeat-detector.spec.ts',
  nudge: 'src/process/policies/nudge-policy.spec.ts',
  hallucination: 'src/process/policies/hallucination-detector.spec.ts',
  council: 'src/process/policies/council-policy.spec.ts',
  callKey: 'src/process/policies/normalize-call-key.spec.ts',
  overflow: 'src/context/overflow.spec.ts',
  contextPolicy: 'src/process/policies/context-policy.spec.ts',
  prune: 'src/context/prune.spec.ts',
  toolCap: 'src/context/tool-result-cap.spec.ts',
};
const APPROVAL_SOCKET = 'test/approval/approval-queue-socket.spec.ts';
const APPROVAL_SERVICE = 'test/approval/approval-service.spec.ts';

module.exports = [
  {
    name: 'approvals-asked-all-at-once',
    why: "the reply's calls are all put to the person at once instead of one at a time (mcp-agent §5 Sequential Approval)",
    file: 'src/process/approval-step.ts',
    edits: [
      [
        '  for (let next = nextPending(queue); next; next = nextPending(queue)) {',
        "  const asked = new Map(queue.map((q, i) => [q.call.id, decideApproval(rt.options.permissions ?? ALLOW_ALL, q.call.name).decision === 'ask' ? ask(rt, iteration, { callId: q.call.id, name: q.call.name, args: q.call.arguments, queuePosition: i + 1, totalInQueue: queue.length }) : undefined]));\n  for (let next = nextPending(queue); next; next = nextPending(queue)) {",
      ],
      ['      const verdict = await ask(rt, iteration, {', '      const verdict = await (asked.get(call.id) ?? ask(rt, iteration, {'],
      ['        totalInQueue: next.totalInQueue,\n      });', '        totalInQueue: next.totalInQueue,\n      }));'],
    ],
    tests: [APPROVAL_SOCKET],
  },
  {
    name: 'results-in-completion-order',
    why: 'the results go back to the model as they settle (approved first, refusals last), not in call order (mcp-agent §5 Result Aggregation)',
    file: 'src/process/tool-execution.ts',
    edits: [
      [
        '  for (const q of queue) {\n    const outcome',
        '  for (const q of [...queue].sort((x, y) => Number(outcomes.has(y.call.id)) - Number(outcomes.has(x.call.id)))) {\n    const outcome',
      ],
    ],
    tests: [APPROVAL_SOCKET],
  },
  {
    name: 'total-in-queue-counts-pending-only',
    why: 'totalInQueue shrinks as calls are decided (the calls still pending, not the queue)',
    file: 'src/approval/approval-queue.ts',
    edits: [['totalInQueue: queue.length }', "totalInQueue: queue.filter((q) => q.status === 'pending').length }"]],
    tests: [UNIT.approvalQueue, APPROVAL_SOCKET],
  },
  {
    name: 'total-in-queue-off-by-one',
    why: 'totalInQueue one short',
    file: 'src/approval/approval-queue.ts',
    edits: [['totalInQueue: queue.length }', 'totalInQueue: queue.length - 1 }']],
    tests: [UNIT.approvalQueue, APPROVAL_SOCKET],
  },
  {
    name: 'queue-position-zero-based',
    why: 'queuePosition counted from 0 (the spec says "1 of N")',
    file: 'src/approval/approval-queue.ts',
    edits: [['queuePosition: at + 1,', 'queuePosition: at,']],
    tests: [UNIT.approvalQueue, APPROVAL_SOCKET],
  },
  {
    name: 'rejection-blocks-the-rest',
    why: 'after a rejection the remaining calls are never asked (the spec: rejected tools do not block the others)',
    file: 'src/approval/approval-queue.ts',
    edits: [
      [
        "  const at = queue.findIndex((q) => q.status === 'pending');",
        "  const at = queue.some((q) => q.status === 'rejected') ? -1 : queue.findIndex((q) => q.status === 'pending');",
      ],
    ],
    tests: [UNIT.approvalQueue, APPROVAL_SOCKET],
  },
  {
    name: 'approval-timeout-approves',
    why: 'a request nobody answers in time counts as approved',
    file: 'src/approval/approval.service.ts',
    edits: [["() => settle(false, 'timeout',", "() => settle(true, 'timeout',"]],
    tests: [APPROVAL_SERVICE],
  },
  {
    name: 'iteration-cap-off-by-one',
    why: 'the loop allows one model step more than max_tool_iterations (direct-process Invariant 2)',
    file: 'src/process/policies/max-iterations.ts',
    edits: [['return iteration >= maxIterations ?', 'return iteration > maxIterations ?']],
    tests: [UNIT.maxIterations],
  },
  {
    name: 'repeat-threshold-off-by-one',
    why: 'the repeat break needs one identical call more than the threshold (Invariant 3)',
    file: 'src/process/policies/repeat-detector.ts',
    edits: [["return count >= threshold ? { kind: 'repeat_break'", "return count > threshold ? { kind: 'repeat_break'"]],
    tests: [UNIT.repeat],
  },
  {
    name: 'doom-loop-window-off-by-one',
    why: "opencode's in-reply doom loop fires on the second identical call instead of the third",
    file: 'src/process/policies/repeat-detector.ts',
    edits: [
      [
        'for (let i = threshold - 1; i < keys.length; i++) {\n    if (keys.slice(i - threshold + 1, i + 1)',
        'for (let i = threshold - 2; i < keys.length; i++) {\n    if (keys.slice(Math.max(0, i - threshold + 2), i + 1)',
      ],
    ],
    tests: [UNIT.repeat],
  },
  {
    name: 'same-tool-threshold-off-by-one',
    why: 'the same-tool break needs a sixth call (Invariant 4)',
    file: 'src/process/policies/same-tool-detector.ts',
    edits: [["return count >= threshold ? { kind: 'same_tool_break'", "return count > threshold ? { kind: 'same_tool_break'"]],
    tests: [UNIT.sameTool],
  },
  {
    name: 'error-repeat-threshold-off-by-one',
    why: 'a repeated failing call breaks one failure late',
    file: 'src/process/policies/error-repeat-detector.ts',
    edits: [
      ["return calls.length >= threshold ? { kind: 'error_repeat_break'", "return calls.length > threshold ? { kind: 'error_repeat_break'"],
    ],
    tests: [UNIT.errorRepeat],
  },
  {
    name: 'nudge-limit-off-by-one',
    why: 'a third initial nudge is sent (Invariant 7: at most 2)',
    file: 'src/process/policies/nudge-policy.ts',
    edits: [['if (nudgesSoFar >= maxNudges) return', 'if (nudgesSoFar > maxNudges) return']],
    tests: [UNIT.nudge],
  },
  {
    name: 'mid-chain-nudge-limit-off-by-one',
    why: 'a third mid-chain nudge is sent (Invariant 7)',
    file: 'src/process/policies/hallucination-detector.ts',
    edits: [['if (midChainNudgesSoFar >= maxMidChainNudges) {', 'if (midChainNudgesSoFar > maxMidChainNudges) {']],
    tests: [UNIT.hallucination],
  },
  {
    name: 'hallucination-misses-closing-tag',
    why: 'only the opening <<tool_output>> counts as fabricated output (Invariant 8 names both tags)',
    file: 'src/process/policies/hallucination-detector.ts',
    edits: [['const MARKER = /\\[tool result\\]|<<\\/?tool_output>>|', 'const MARKER = /\\[tool result\\]|<<tool_output>>|']],
    tests: [UNIT.hallucination],
  },
  {
    name: 'council-keeps-tools',
    why: 'a council member gets tools (Invariant 10)',
    file: 'src/process/policies/council-policy.ts',
    edits: [['  return { toolsEnabled: false, role, systemPrompt: COUNCIL_SYSTEM_PROMPTS[role] };', '  return { toolsEnabled: true };']],
    tests: [UNIT.council],
  },
  {
    name: 'call-key-unsorted',
    why: 'argument order makes two identical calls differ (Invariant 3: sorted keys)',
    file: 'src/process/policies/normalize-call-key.ts',
    edits: [['for (const key of Object.keys(value).sort())', 'for (const key of Object.keys(value))']],
    tests: [UNIT.callKey],
  },
  {
    name: 'compaction-ratio-ignored',
    why: "opencode's compaction waits for a full window instead of 90% of it (stream-processor Finish: `limit.context * 0.9`)",
    file: 'src/context/overflow.ts',
    edits: [['if (promptTokens < numCtx * ratio) return null;', 'if (promptTokens < numCtx) return null;']],
    tests: [UNIT.overflow, UNIT.contextPolicy],
  },
  {
    name: 'overflow-ignores-output-reserve',
    why: 'the usable window is the whole window: no room kept for the reply (plan §2 isOverflow: contextLimit - outputBuffer)',
    file: 'src/context/overflow.ts',
    edits: [['  const usableTokens = numCtx - reservedOutputTokens;', '  const usableTokens = numCtx;']],
    tests: [UNIT.overflow, UNIT.contextPolicy],
  },
  {
    name: 'prune-keeps-the-oldest',
    why: 'pruning clears the newest tool output inside the protected budget and keeps the oldest (plan §3 goes backwards and prunes what is past PRUNE_PROTECT)',
    file: 'src/context/prune.ts',
    edits: [['    if (seen > protectTokens) {', '    if (seen <= protectTokens) {']],
    tests: [UNIT.prune],
  },
  {
    name: 'tool-result-cap-share',
    why: 'a tool result may take 40% of the window instead of 30% (Invariant 6)',
    file: 'src/context/tool-result-cap.ts',
    edits: [['export const TOOL_RESULT_MAX_CONTEXT_SHARE = 0.3;', 'export const TOOL_RESULT_MAX_CONTEXT_SHARE = 0.4;']],
    tests: [UNIT.toolCap],
  },
  {
    name: 'message-queue-dequeues-newest',
    why: "dexto's dequeue takes the newest message, not the oldest (plan §4 `queue.shift()`)",
    file: 'src/process/message-queue.ts',
    edits: [['    return this.items.shift();', '    return this.items.pop();']],
    tests: ['src/process/message-queue.spec.ts'],
  },
];
