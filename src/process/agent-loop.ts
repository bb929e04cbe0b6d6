// The agentic loop proper: each step prepares the context, calls the model, and does what the pure
// policies decide — run the tool calls (then check loop control), nudge, or stop. Every decision
// is recorded through the runtime; nothing here decides by itself.
import { estimateMessagesTokens, estimateTokens, renderForModel } from '../context';
import type { LlmCompletionResult, LlmToolCall, LlmToolDefinition } from '../provider/llm-types';
import { ProviderError } from '../provider/provider-errors';
import { unreachable } from '../common/unreachable';
import { decidePreflight, usageOverflow } from './policies/context-policy';
import { clearHistory, prepareContext, pruneAfterToolStep, shrinkContext } from './context-preparation';
import { beginIteration, endIteration, runInference } from './inference-step';
import { ContextWillOverflowError, type LoopRuntime } from './loop-runtime';
import type { MessageQueue } from './message-queue';
import { checkLoopAfterTools, checkLoopInText } from './loop-guard';
import { replyOutcome } from './policies/iteration-outcome';
import { processUniqueCallIds } from './policies/call-ids';
import { detectRepeatBeforeRun } from './policies/repeat-before-run';
import type { RepeatBreak } from './policies/repeat-detector';
import { decideNextStep, type NextStep } from './policies/next-step';
import { recoverFromProviderError } from './policies/provider-recovery';
import { stepSignal } from './policies/step-signal';
import { buildEpilogueRequest, type TerminationReason } from './policies/termination';
import { executeToolCalls } from './tool-execution';

export interface LoopOutcome {
  reason: TerminationReason;
  finalAnswer: string;
}

export async function runLoop(rt: LoopRuntime, queue: MessageQueue): Promise<LoopOutcome> {
  for (let step = 1; ; step++) {
    rt.throwIfAborted();
    const iteration = beginIteration(rt, 'step');
    injectQueuedMessages(rt, queue, iteration);
    await prepareContext(rt, iteration);
    const reply = await callModel(rt, iteration);
    const next = decideNextStep({ reply, step, counters: rt.counters, settings: rt.settings, toolsEnabled: rt.toolsEnabled });
    const outcome = await act(rt, iteration, step, reply, next);
    if (outcome) return outcome;
  }
}

/** Carries out one decision; returns the outcome when the loop ends here. */
async function act(
  rt: LoopRuntime,
  iteration: number,
  step: number,
  reply: LlmCompletionResult,
  next: NextStep,
): Promise<LoopOutcome | undefined> {
  if (next.kind === 'run_tools' && rt.settings.callIds === 'timestamp_index') next = { ...next, calls: renameCalls(next.calls) };
  switch (next.kind) {
    case 'run_tools': {
      const early = repeatBeforeRun(rt, iteration, next.calls);
      if (early) {
        // corvid: the repeating call is not run; the reply's text (if any) stays, its calls do not
        if (reply.content.trim())
          rt.append({ role: 'assistant', kind: 'assistant', content: reply.content, thinking: reply.thinking }, iteration);
        rt.record('repeat_break', { ...early, beforeRun: true }, iteration);
        endIteration(rt, iteration, 'repeat_break');
        return { reason: 'repeat_break', finalAnswer: '' };
      }
      if (next.stripped) {
        // fabricated output after the calls never enters the transcript: the event keeps it
        rt.record('hallucination_stripped', { ...next.stripped, content: reply.content.slice(0, 4000), withToolCalls: true }, iteration);
      }
      rt.append(
        { role: 'assistant', kind: 'assistant', content: next.content, toolCalls: next.calls, thinking: reply.thinking },
        iteration,
      );
      const tools = await executeToolCalls(rt, iteration, next.calls);
      // the stream processor's choice: a rejected permission blocks the session — unless the step
      // needs compaction, which it checks first (the next step's preparation then compacts)
      const signal = stepSignal({
        needsCompaction: usageOverflow(rt.settings, rt.lastPromptTokens) !== null,
        blocked: tools.rejected > 0 && rt.settings.onRejection === 'stop',
      });
      if (signal === 'stop') {
        endIteration(rt, iteration, 'permission_rejected');
        return { reason: 'permission_rejected', finalAnswer: '' };
      }
      const loop = await checkLoopAfterTools(rt, iteration, step, reply.content, next.calls.length);
      if (!loop) {
        // the nudge asks for another turn: only where the loop goes on (invariant 2)
        if (next.midChainNudge) {
          rt.count({ kind: 'mid_chain_nudged' });
          rt.record('mid_chain_nudge', { markers: next.stripped?.markers, count: rt.counters.midChainNudges }, iteration);
          rt.append({ role: 'user', kind: 'nudge', content: next.midChainNudge }, iteration);
        }
        pruneAfterToolStep(rt, iteration);
        endIteration(rt, iteration, 'tool_calls');
        return undefined;
      }
      rt.record(loop.kind, loop, iteration);
      endIteration(rt, iteration, loop.kind);
      return { reason: loop.kind, finalAnswer: '' };
    }
    case 'mid_chain_nudge':
      rt.record('hallucination_stripped', { ...next.stripped, content: reply.content.slice(0, 4000) }, iteration);
      rt.count({ kind: 'mid_chain_nudged' });
      rt.record('mid_chain_nudge', { markers: next.stripped.markers, count: rt.counters.midChainNudges }, iteration);
      rt.append({ role: 'user', kind: 'nudge', content: next.message }, iteration);
      endIteration(rt, iteration, 'mid_chain_nudge');
      return undefined;
    case 'cap_reached':
      // invariant 2: the nudge would be another turn, and the cap leaves none
      if (next.stripped) rt.record('hallucination_stripped', { ...next.stripped, content: reply.content.slice(0, 4000) }, iteration);
      rt.append({ role: 'assistant', kind: 'assistant', content: next.finalAnswer, thinking: reply.thinking }, iteration);
      rt.record('max_iterations', next.cap, iteration);
      endIteration(rt, iteration, 'max_iterations');
      return { reason: 'max_iterations', finalAnswer: next.finalAnswer };
    case 'nudge':
      rt.append({ role: 'assistant', kind: 'assistant', content: reply.content, thinking: reply.thinking }, iteration);
      rt.count({ kind: 'nudged' });
      rt.record('nudge', { reason: next.reason, evidence: next.evidence, count: rt.counters.nudges }, iteration);
      rt.append({ role: 'user', kind: 'nudge', content: next.message }, iteration);
      endIteration(rt, iteration, replyOutcome(reply, 'nudge'));
      return undefined;
    case 'stop': {
      const x = next.exhausted;
      if (x?.kind === 'mid_chain_nudge') {
        rt.record('hallucination_stripped', { ...x.stripped, content: reply.content.slice(0, 4000) }, iteration);
        rt.append({ role: 'assistant', kind: 'assistant', content: next.finalAnswer, thinking: reply.thinking }, iteration);
        rt.record('mid_chain_nudge', { exhausted: true, nudgesSoFar: x.nudgesSoFar, max: x.max }, iteration);
      } else {
        rt.append({ role: 'assistant', kind: 'assistant', content: reply.content, thinking: reply.thinking }, iteration);
        if (x)
          rt.record(
            'nudge',
            { reason: x.reason, evidence: x.evidence, exhausted: true, nudgesSoFar: x.nudgesSoFar, max: x.max },
            iteration,
          );
        const looped = await checkLoopInText(rt, iteration, step, reply.content);
        if (looped === 'warned') {
          endIteration(rt, iteration, 'loop_warning');
          return undefined;
        }
        if (looped) {
          rt.record(looped.kind, looped, iteration);
          endIteration(rt, iteration, looped.kind);
          return { reason: looped.kind, finalAnswer: '' };
        }
      }
      endIteration(rt, iteration, replyOutcome(reply, next.reason === 'completed' ? 'final_answer' : 'nudges_exhausted'));
      return { reason: next.reason, finalAnswer: next.finalAnswer };
    }
    default:
      return unreachable(next, 'next step');
  }
}

/** The MCP agent's `call_${timestamp}_${index}` (mcp-agent-technical-spec.md §5 step 1), unique in this process. */
function renameCalls(calls: LlmToolCall[]): LlmToolCall[] {
  return processUniqueCallIds(calls, Date.now());
}

/** corvid checks a reply's calls for a repeat before running them (direct-process.spec.md invariant 3). */
function repeatBeforeRun(rt: LoopRuntime, iteration: number, calls: LlmToolCall[]): RepeatBreak | null {
  const s = rt.settings;
  if (s.repeatCheck !== 'before_run') return null;
  return detectRepeatBeforeRun(rt.calls.slice(rt.loopWindowStart), calls, s.repeatThreshold, s.callKey, iteration);
}

/** One model call with the session's tools, after the profile's pre-flight check; recoverable provider errors are handled here. */
async function callModel(rt: LoopRuntime, iteration: number): Promise<LlmCompletionResult> {
  for (let recoveries = 0; ; recoveries++) {
    const tools = rt.toolsEnabled ? rt.tools.definitions() : [];
    preflight(rt, iteration, tools);
    for (const m of rt.context) if (m.index > rt.lastSentIndex) rt.lastSentIndex = m.index;
    try {
      return await runInference(rt, iteration, { purpose: 'step', messages: renderForModel(rt.context), tools });
    } catch (e) {
      if (!ProviderError.isInstance(e)) throw e;
      const recovery = recoverFromProviderError(e.info, {
        recoveriesSoFar: recoveries,
        toolsEnabled: rt.toolsEnabled,
        providerOverflow: rt.settings.providerOverflow,
        overflowRetries: rt.settings.providerOverflowRetries,
      });
      switch (recovery) {
        case 'disable_tools':
          rt.toolsEnabled = false;
          rt.record('tools_disabled', { reason: 'tools_unsupported', message: e.info.message }, iteration);
          break;
        case 'compact':
        case 'clear_history':
          rt.record(
            'context_overflow',
            { reason: 'provider_rejected', message: e.info.message, phase: 'provider', action: recovery },
            iteration,
          );
          await shrinkContext(rt, iteration, 'provider_context_too_long', recovery);
          break;
        case 'fail':
          throw e;
        default:
          unreachable(recovery, 'provider recovery');
      }
    }
  }
}

/** gemini-cli refuses to send what will not fit; the MCP agent clears the history first (Loupe's guard records, in runInference). */
function preflight(rt: LoopRuntime, iteration: number, tools: LlmToolDefinition[]): void {
  // 'record' is Loupe's guard, done on every call in runInference; 'off' checks nothing
  if (rt.settings.preflight === 'off' || rt.settings.preflight === 'record') return;
  const estimator = rt.settings.tokenEstimator;
  const fresh = rt.context.filter((m) => m.index > rt.lastSentIndex || m.index < 0);
  const decision = decidePreflight(rt.settings, {
    estimatedTokens: estimateMessagesTokens(rt.context, estimator),
    toolTokens: tools.length ? estimateTokens(JSON.stringify(tools), estimator) : 0,
    newTokens: estimateMessagesTokens(fresh, estimator),
    lastPromptTokens:
      rt.lastPromptTokens ??
      estimateMessagesTokens(
        rt.context.filter((m) => !fresh.includes(m)),
        estimator,
      ),
  });
  if (decision.kind === 'clear_history') {
    rt.record('context_overflow', { ...decision.overflow, phase: 'before_send', purpose: 'step', action: 'clear_history' }, iteration);
    clearHistory(rt, iteration, 'preflight_over_window');
  } else if (decision.kind === 'refuse') {
    rt.record('context_overflow', { ...decision.overflow, phase: 'before_send', purpose: 'step', action: 'refuse' }, iteration);
    throw new ContextWillOverflowError(decision.overflow.estimated, decision.overflow.numCtx - decision.overflow.lastPromptTokens);
  }
}

/** Spec invariant 9: after an abnormal break, one tools-disabled call produces a summary. */
export async function runEpilogue(rt: LoopRuntime, reason: TerminationReason): Promise<string> {
  const request = rt.settings.epilogue === 'summary' ? buildEpilogueRequest(reason) : null;
  if (!request) return '';
  const iteration = beginIteration(rt, 'epilogue');
  try {
    rt.append({ role: 'user', kind: 'epilogue_request', content: request.content }, iteration);
    await prepareContext(rt, iteration);
    const result = await runInference(rt, iteration, { purpose: 'epilogue', messages: renderForModel(rt.context), tools: [] });
    rt.append({ role: 'assistant', kind: 'assistant', content: result.content, thinking: result.thinking }, iteration);
    rt.record('summary_epilogue', { reason, chars: result.content.length, toolsEnabled: false }, iteration);
    endIteration(rt, iteration, 'epilogue');
    return result.content;
  } catch (e) {
    if (rt.signal.aborted) throw e;
    // the break already ended the session; a failed summary is recorded, not fatal
    rt.record(
      'error',
      { phase: 'epilogue', message: (e as Error).message, ...(ProviderError.isInstance(e) ? { kind: e.info.kind } : {}) },
      iteration,
    );
    endIteration(rt, iteration, 'epilogue_failed', 'failed');
    return '';
  }
}

function injectQueuedMessages(rt: LoopRuntime, queue: MessageQueue, iteration: number): void {
  // dexto takes one message per step (context-management-plan.md §4 dequeue); the others drain the queue
  const one = rt.settings.queueInjection === 'one' ? queue.dequeue() : undefined;
  if (one) rt.record('user_message_dequeued', { id: one.id, left: queue.size }, iteration);
  for (const m of one ? [one] : queue.drain()) {
    rt.append({ role: 'user', kind: 'injected', content: m.text }, iteration);
    rt.record('user_message_injected', { chars: m.text.length, waitedMs: Date.now() - m.queuedAt, id: m.id }, iteration);
  }
}
