// The agentic loop proper: each step prepares the context, calls the model, and does what the pure
// policies decide — run the tool calls (then check loop control), nudge, or stop. Every decision
// is recorded through the runtime; nothing here decides by itself.
import { estimateMessagesTokens, estimateTokens, renderForModel } from '../context';
import type { LlmCompletionResult, LlmToolDefinition } from '../provider/llm-types';
import { ProviderError } from '../provider/provider-errors';
import { decidePreflight } from './policies/context-policy';
import { clearHistory, prepareContext, shrinkContext } from './context-preparation';
import { beginIteration, endIteration, runInference } from './inference-step';
import { ContextWillOverflowError, type LoopRuntime } from './loop-runtime';
import type { MessageQueue } from './message-queue';
import { checkLoopAfterTools, checkLoopInText } from './loop-guard';
import { decideNextStep, type NextStep } from './policies/next-step';
import { recoverFromProviderError } from './policies/provider-recovery';
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
  switch (next.kind) {
    case 'run_tools': {
      if (next.stripped) {
        // fabricated output after the calls never enters the transcript: the event keeps it
        rt.record('hallucination_stripped', { ...next.stripped, content: reply.content.slice(0, 4000), withToolCalls: true }, iteration);
      }
      rt.append(
        { role: 'assistant', kind: 'assistant', content: next.content, toolCalls: next.calls, thinking: reply.thinking },
        iteration,
      );
      const tools = await executeToolCalls(rt, iteration, next.calls);
      rt.waitedForApproval(iteration, tools.approvalWaitMs);
      if (tools.rejected && rt.settings.onRejection === 'stop') {
        // the stream processor's choice: a rejected permission blocks the session
        endIteration(rt, iteration, 'permission_rejected');
        return { reason: 'permission_rejected', finalAnswer: '' };
      }
      if (next.midChainNudge) {
        rt.count({ kind: 'mid_chain_nudged' });
        rt.record('mid_chain_nudge', { markers: next.stripped?.markers, count: rt.counters.midChainNudges }, iteration);
        rt.append({ role: 'user', kind: 'nudge', content: next.midChainNudge }, iteration);
      }
      const loop = await checkLoopAfterTools(rt, iteration, step, reply.content, next.calls.length);
      if (!loop) {
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
    case 'nudge':
      rt.append({ role: 'assistant', kind: 'assistant', content: reply.content, thinking: reply.thinking }, iteration);
      rt.count({ kind: 'nudged' });
      rt.record('nudge', { reason: next.reason, evidence: next.evidence, count: rt.counters.nudges }, iteration);
      rt.append({ role: 'user', kind: 'nudge', content: next.message }, iteration);
      endIteration(rt, iteration, 'nudge');
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
        const looped = await checkLoopInText(rt, iteration, reply.content);
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
      endIteration(rt, iteration, next.reason === 'completed' ? 'final_answer' : 'nudges_exhausted');
      return { reason: next.reason, finalAnswer: next.finalAnswer };
    }
  }
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
  for (const m of queue.drain()) {
    rt.append({ role: 'user', kind: 'injected', content: m.text }, iteration);
    rt.record('user_message_injected', { chars: m.text.length, waitedMs: Date.now() - m.queuedAt }, iteration);
  }
}
