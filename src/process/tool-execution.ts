// Runs one step's tool calls in order, each under its own `execute_tool` span, with its row moving
// pending → approved/rejected → executing → completed/failed/aborted. Every result goes back to the
// model (errors, unknown tools, denials and timeouts as text) and into the detectors' call history.
import { createHash } from 'node:crypto';
import { context } from '@opentelemetry/api';
import { ALLOW_ALL, decideApproval, permissionDeniedText } from '../approval/approval-policy';
import { calculateMaxToolResultChars, capToolResult, estimateMessagesTokens } from '../context';
import type { LlmToolCall } from '../provider/llm-types';
import type { ToolOutcome } from '../tools/tool-types';
import type { LoopRuntime } from './loop-runtime';
import { failSpan, startToolSpan } from './loop-tracing';

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export async function executeToolCalls(rt: LoopRuntime, iteration: number, calls: LlmToolCall[]): Promise<void> {
  for (const call of calls) {
    rt.throwIfAborted();
    await executeOne(rt, iteration, call);
  }
}

async function executeOne(rt: LoopRuntime, iteration: number, call: LlmToolCall): Promise<void> {
  const { span, ctx } = startToolSpan(rt.iterationCtx, call.name, call.id, call.arguments);
  const base = { id: call.id, iteration, name: call.name, arguments: call.arguments };
  rt.recorder.toolCall({ ...base, status: 'pending' }, { span });
  rt.record('tool_call', { id: call.id, name: call.name, arguments: call.arguments }, iteration, span);

  let outcome: ToolOutcome;
  const approval = decideApproval(rt.options.permissions ?? ALLOW_ALL, call.name);
  if (rt.options.permissions) rt.record('approval_decided', { id: call.id, name: call.name, ...approval, by: 'policy' }, iteration, span);
  if (approval.decision === 'deny') {
    outcome = { status: 'error', text: permissionDeniedText(call.name), durationMs: 0 };
    rt.recorder.toolCall({ ...base, status: 'rejected', error: outcome.text });
  } else {
    rt.recorder.toolCall({ ...base, status: 'executing' });
    outcome = await context.with(ctx, () => rt.tools.execute(call.name, call.arguments, { signal: rt.signal, timeoutMs: rt.settings.toolTimeoutMs }));
  }

  const cap = calculateMaxToolResultChars(rt.settings.numCtx, estimateMessagesTokens(rt.context));
  const capped = capToolResult(outcome.text, cap);
  if (capped.truncated) {
    rt.record('tool_result_capped', { id: call.id, name: call.name, originalChars: capped.originalChars, keptChars: capped.text.length, omittedChars: capped.omittedChars, maxChars: cap }, iteration, span);
  }
  const ok = outcome.status === 'ok';
  if (approval.decision === 'allow') {
    rt.recorder.toolCall({
      ...base,
      status: outcome.status === 'aborted' ? 'aborted' : ok ? 'completed' : 'failed',
      result: ok ? outcome.text : null,
      error: ok ? null : outcome.text,
      durationMs: outcome.durationMs,
    });
  }
  const resultPayload = { id: call.id, name: call.name, status: approval.decision === 'deny' ? 'denied' : outcome.status, chars: outcome.text.length, durationMs: outcome.durationMs };
  if (ok) rt.record('tool_result', resultPayload, iteration, span);
  else {
    rt.record('tool_error', { ...resultPayload, error: outcome.text.slice(0, 500) }, iteration, span);
    failSpan(span, approval.decision === 'deny' ? 'permission_denied' : outcome.status, outcome.text.slice(0, 200));
  }
  span.end();

  rt.append({ role: 'tool', kind: 'tool_result', content: capped.text, toolCallId: call.id, toolName: call.name }, iteration);
  rt.calls.push({ iteration, name: call.name, arguments: call.arguments, outcome: ok ? 'ok' : 'error', resultDigest: digest(outcome.text) });
  rt.count({ kind: 'tool_ran' });
  if (outcome.status === 'aborted') rt.throwIfAborted();
}
