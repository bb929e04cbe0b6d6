// The agentic loop proper: each step prepares the context, calls the model, and does what the pure
// policies decide — run the tool calls (then check loop control), nudge, or stop. Every decision
// is recorded through the runtime; nothing here decides by itself.
import { renderForModel } from '../context';
import type { LlmCompletionResult } from '../provider/llm-types';
import { ProviderError } from '../provider/provider-errors';
import { compactOrTrim, prepareContext } from './context-preparation';
import { beginIteration, endIteration, runInference } from './inference-step';
import type { LoopRuntime } from './loop-runtime';
import type { MessageQueue } from './message-queue';
import { ask } from './approval-step';
import { evaluateLoopControl } from './policies/loop-control';
import type { RepeatBreak } from './policies/repeat-detector';
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
async function act(rt: LoopRuntime, iteration: number, step: number, reply: LlmCompletionResult, next: NextStep): Promise<LoopOutcome | undefined> {
  switch (next.kind) {
    case 'run_tools': {
      if (next.stripped) {
        // fabricated output after the calls never enters the transcript: the event keeps it
        rt.record('hallucination_stripped', { ...next.stripped, content: reply.content.slice(0, 4000), withToolCalls: true }, iteration);
      }
      rt.append({ role: 'assistant', kind: 'assistant', content: next.content, toolCalls: next.calls, thinking: reply.thinking }, iteration);
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
      const s = rt.settings;
      const control = evaluateLoopControl(rt.calls, {
        iteration: step, maxIterations: s.maxToolIterations, repeatThreshold: s.repeatThreshold, sameToolThreshold: s.sameToolThreshold,
        errorRepeatThreshold: s.errorRepeatThreshold, cycle: { repetitions: s.cycleRepetitions },
      });
      if (control.kind === 'continue' || (control.kind === 'repeat_break' && await doomLoopAllowed(rt, iteration, control))) {
        endIteration(rt, iteration, 'tool_calls');
        return undefined;
      }
      rt.record(control.kind, control, iteration);
      endIteration(rt, iteration, control.kind);
      return { reason: control.kind, finalAnswer: '' };
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
        if (x) rt.record('nudge', { reason: x.reason, evidence: x.evidence, exhausted: true, nudgesSoFar: x.nudgesSoFar, max: x.max }, iteration);
      }
      endIteration(rt, iteration, next.reason === 'completed' ? 'final_answer' : 'nudges_exhausted');
      return { reason: next.reason, finalAnswer: next.finalAnswer };
    }
  }
}

/**
 * opencode's doom-loop permission: with `doomLoop: ask`, a repeated call asks whether to go on
 * instead of breaking. Approved: the loop continues; rejected or unanswered: it breaks.
 */
async function doomLoopAllowed(rt: LoopRuntime, iteration: number, repeat: RepeatBreak): Promise<boolean> {
  if (rt.settings.doomLoop !== 'ask') return false;
  const last = repeat.calls[repeat.calls.length - 1];
  const callId = `doom_loop_${rt.options.sessionId.slice(0, 8)}_${rt.calls.length}`;
  const verdict = await ask(rt, iteration, {
    callId, name: 'doom_loop', args: { tool: last.name, arguments: last.arguments, count: repeat.count }, queuePosition: 1, totalInQueue: 1,
  });
  rt.waitedForApproval(iteration, verdict.waitedMs);
  rt.record('approval_decided', {
    id: callId, name: 'doom_loop', decision: verdict.approved ? 'allow' : 'deny', rule: 'doom_loop', by: verdict.by,
    ...(verdict.reason ? { reason: verdict.reason } : {}), waitedMs: verdict.waitedMs,
  }, iteration);
  return verdict.approved;
}

/** One model call with the session's tools; the spec's recoverable provider errors are handled here. */
async function callModel(rt: LoopRuntime, iteration: number): Promise<LlmCompletionResult> {
  for (let recoveries = 0; ; recoveries++) {
    const tools = rt.toolsEnabled ? rt.tools.definitions() : [];
    try {
      return await runInference(rt, iteration, { purpose: 'step', messages: renderForModel(rt.context), tools });
    } catch (e) {
      if (!ProviderError.isInstance(e)) throw e;
      switch (recoverFromProviderError(e.info, { recoveriesSoFar: recoveries, toolsEnabled: rt.toolsEnabled })) {
        case 'disable_tools':
          rt.toolsEnabled = false;
          rt.record('tools_disabled', { reason: 'tools_unsupported', message: e.info.message }, iteration);
          break;
        case 'compact':
          rt.record('context_overflow', { reason: 'provider_rejected', message: e.info.message, phase: 'provider' }, iteration);
          await compactOrTrim(rt, iteration, 'provider_context_too_long');
          break;
        case 'fail':
          throw e;
      }
    }
  }
}

/** Spec invariant 9: after an abnormal break, one tools-disabled call produces a summary. */
export async function runEpilogue(rt: LoopRuntime, reason: TerminationReason): Promise<string> {
  const request = buildEpilogueRequest(reason);
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
    rt.record('error', { phase: 'epilogue', message: (e as Error).message, ...(ProviderError.isInstance(e) ? { kind: e.info.kind } : {}) }, iteration);
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
