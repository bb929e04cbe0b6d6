// Runs one step's tool calls: approvals first, one at a time (./approval-step), then the approved
// calls — in parallel, each settled on its own (one failure or timeout does not stop the others),
// or one after another — each under its own `execute_tool` span, its row moving pending →
// approved/rejected → executing → completed/failed/aborted. Results are aggregated in call order and
// go back to the model (errors, unknown tools, denials and timeouts as text) and into the
// detectors' call history; the step's queue ends with it.
import { createHash } from 'node:crypto';
import { context } from '@opentelemetry/api';
import { permissionDeniedText } from '../approval/approval-policy';
import { callsWith } from '../approval/approval-queue';
import { capToolResult, estimateMessagesTokens, toolResultCapFor } from '../context';
import type { LlmToolCall } from '../provider/llm-types';
import type { ToolOutcome } from '../tools/tool-types';
import { decideApprovals } from './approval-step';
import type { LoopRuntime } from './loop-runtime';
import { failSpan, startToolSpan } from './loop-tracing';

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export interface StepToolsOutcome {
  /** calls a decision rejected (their denial text went to the model) */
  rejected: number;
  /** the step's approval waits (already counted on the iteration and session, by each ask) */
  approvalWaitMs: number;
}

export async function executeToolCalls(rt: LoopRuntime, iteration: number, calls: LlmToolCall[]): Promise<StepToolsOutcome> {
  for (const call of calls) {
    rt.recorder.toolCall(
      { id: call.id, iteration, name: call.name, arguments: call.arguments, status: 'pending' },
      { span: rt.iterationSpan },
    );
    rt.record('tool_call', { id: call.id, name: call.name, arguments: call.arguments }, iteration);
  }
  const { queue, waitedMs } = await decideApprovals(rt, iteration, calls);
  const approved = callsWith(queue, 'approved');
  const run = (call: LlmToolCall) => runOne(rt, iteration, call);
  const outcomes = new Map<string, ToolOutcome>();
  if (rt.settings.toolExecution === 'parallel') {
    const settled = await Promise.allSettled(approved.map(run));
    settled.forEach((s, i) => outcomes.set(approved[i].id, s.status === 'fulfilled' ? s.value : failedOutcome(s.reason)));
  } else {
    for (const call of approved) {
      rt.throwIfAborted();
      outcomes.set(call.id, await run(call));
    }
  }
  // in call order, as the model wrote them
  for (const q of queue) {
    const outcome = outcomes.get(q.call.id) ?? {
      status: 'error' as const,
      text: permissionDeniedText(q.call.name, q.reason),
      durationMs: 0,
    };
    recordResult(rt, iteration, q.call, outcome, q.status === 'rejected');
  }
  rt.throwIfAborted();
  return { rejected: queue.filter((q) => q.status === 'rejected').length, approvalWaitMs: waitedMs };
}

function failedOutcome(reason: unknown): ToolOutcome {
  return { status: 'error', text: `Error: ${(reason as Error)?.message ?? String(reason)}`, durationMs: 0 };
}

async function runOne(rt: LoopRuntime, iteration: number, call: LlmToolCall): Promise<ToolOutcome> {
  const { span, ctx } = startToolSpan(rt.iterationCtx, call.name, call.id, call.arguments);
  const base = { id: call.id, iteration, name: call.name, arguments: call.arguments };
  rt.recorder.toolCall({ ...base, status: 'executing' }, { span });
  const outcome = await context.with(ctx, () =>
    rt.tools.execute(call.name, call.arguments, { signal: rt.signal, timeoutMs: rt.settings.toolTimeoutMs }),
  );
  const ok = outcome.status === 'ok';
  rt.recorder.toolCall({
    ...base,
    status: outcome.status === 'aborted' ? 'aborted' : ok ? 'completed' : 'failed',
    result: ok ? outcome.text : null,
    error: ok ? null : outcome.text,
    durationMs: outcome.durationMs,
  });
  if (!ok) failSpan(span, outcome.status, outcome.text.slice(0, 200));
  span.end();
  return outcome;
}

/** What one call gave the model: capped text, its events, the transcript message, the detectors' record. */
function recordResult(rt: LoopRuntime, iteration: number, call: LlmToolCall, outcome: ToolOutcome, rejected: boolean): void {
  const cap = toolResultCapFor(rt.settings, estimateMessagesTokens(rt.context, rt.settings.tokenEstimator));
  const capped =
    cap === null
      ? { text: outcome.text, truncated: false, originalChars: outcome.text.length, omittedChars: 0 }
      : capToolResult(outcome.text, cap);
  if (capped.truncated && cap !== null) {
    rt.record(
      'tool_result_capped',
      {
        id: call.id,
        name: call.name,
        originalChars: capped.originalChars,
        keptChars: capped.text.length,
        omittedChars: capped.omittedChars,
        maxChars: cap,
      },
      iteration,
    );
  }
  const ok = outcome.status === 'ok';
  const resultPayload = {
    id: call.id,
    name: call.name,
    status: rejected ? ('denied' as const) : outcome.status,
    chars: outcome.text.length,
    durationMs: outcome.durationMs,
  };
  if (ok) rt.record('tool_result', resultPayload, iteration);
  else rt.record('tool_error', { ...resultPayload, error: outcome.text.slice(0, 500) }, iteration);
  rt.append(
    {
      role: 'tool',
      kind: 'tool_result',
      content: capped.text,
      toolCallId: call.id,
      toolName: call.name,
      ...(ok ? {} : { toolFailed: true }),
    },
    iteration,
  );
  rt.calls.push({
    iteration,
    name: call.name,
    arguments: call.arguments,
    outcome: ok ? 'ok' : 'error',
    resultDigest: digest(outcome.text),
  });
  rt.count({ kind: 'tool_ran' });
}
