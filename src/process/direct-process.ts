// The direct process: the agentic loop for Ollama sessions. It orchestrates the phases (slot, context
// preparation, inference, tools, loop control, epilogue) and records every decision through the
// journal; the decisions themselves are pure policies (./policies, ../context).
import { context, SpanKind } from '@opentelemetry/api';
import { renderForModel } from '../context';
import type { JournalSink } from '../journal/session-recorder';
import { SessionRecorder } from '../journal/session-recorder';
import { ProviderError, SlotWaitTimeoutError } from '../provider/ollama/provider-errors';
import type { LlmCompletionResult } from '../provider/llm-types';
import { GEN_AI, LOUPE_ATTR, SPAN_NAMES } from '../telemetry/gen-ai-attributes';
import { prepareContext, compactOrTrim } from './context-preparation';
import { beginIteration, endIteration, runInference } from './inference-step';
import { LoopRuntime, SessionAbortedError } from './loop-runtime';
import { failSpan, startChildSpan, startSessionSpan } from './loop-tracing';
import { MessageQueue } from './message-queue';
import {
  buildEpilogueRequest, councilToolPolicy, detectHallucinatedToolOutput, detectNudgeReason, evaluateLoopControl,
  needsSummaryEpilogue, type TerminationReason,
} from './policies';
import type { DirectProcessOptions, LoopSettings, SessionHandle, SessionResult } from './process-types';
import { allocatePseudoPid } from './pseudo-pid';
import { buildSystemPrompt } from './system-prompt';
import { connectExternalServers } from '../tools/external-mcp';
import type { McpToolSource } from '../tools/mcp-tool-source';
import { executeToolCalls } from './tool-execution';

interface LoopOutcome {
  reason: TerminationReason;
  finalAnswer: string;
}

export class DirectProcess implements SessionHandle {
  readonly pid = allocatePseudoPid();
  readonly done: Promise<SessionResult>;
  private readonly abort = new AbortController();
  private readonly queue = new MessageQueue();
  private finished = false;

  constructor(private readonly options: DirectProcessOptions, private readonly settings: LoopSettings, private readonly journal: JournalSink) {
    this.done = this.run();
  }

  get sessionId(): string {
    return this.options.sessionId;
  }

  sendMessage(text: string): void {
    if (this.finished) throw new Error(`session ${this.sessionId} has finished; start a new session to continue`);
    this.queue.enqueue(text);
  }

  kill(reason = 'killed'): void {
    if (!this.abort.signal.aborted) this.abort.abort(reason);
  }

  private async run(): Promise<SessionResult> {
    await Promise.resolve(); // let the caller hold the handle before anything is recorded
    const o = this.options;
    const agent = o.agent ?? 'loupe';
    const { span: root, ctx: rootCtx } = startSessionSpan(agent, o.sessionId, o.model, o.trialId);
    const council = councilToolPolicy(o.councilRole);
    const recorder = new SessionRecorder(this.journal, {
      id: o.sessionId, pid: this.pid, agent, model: o.model, prompt: o.prompt, councilRole: o.councilRole ?? null,
      trialId: o.trialId ?? null, workspace: o.workspaceDir ?? null, config: { ...this.settings, host: o.provider.host },
    }, root);
    const rt = new LoopRuntime(o, this.settings, recorder, this.abort.signal, rootCtx, council.toolsEnabled);
    rt.record('session_started', {
      model: o.model, pid: this.pid, host: o.provider.host, toolsEnabled: council.toolsEnabled, councilRole: o.councilRole ?? null, settings: { ...this.settings },
    }, null, root);
    const external = council.toolsEnabled ? await this.connectExternalTools(rt) : [];
    rt.record('tools_available', { tools: council.toolsEnabled ? rt.tools.definitions().map((t) => t.name) : [] }, null, root);

    let slotAcquired = false;
    let outcome: LoopOutcome = { reason: 'completed', finalAnswer: '' };
    let exitCode = 0;
    let error: string | undefined;
    try {
      rt.append({ role: 'system', kind: 'system', content: buildSystemPrompt(council, o.systemPrompt) }, null);
      rt.append({ role: 'user', kind: 'prompt', content: o.prompt }, null);
      await this.recordModels(rt);
      slotAcquired = await this.acquireSlot(rt);
      outcome = await context.with(rootCtx, () => this.loop(rt));
      if (needsSummaryEpilogue(outcome.reason)) outcome.finalAnswer = await this.epilogue(rt, outcome.reason);
    } catch (e) {
      ({ outcome, exitCode, error } = this.failure(rt, e, outcome));
    } finally {
      if (slotAcquired) {
        const detection = o.provider.releaseSlot(o.model, (type, payload) => rt.record(type, payload, null, root));
        rt.record('slot_released', { model: o.model }, null, root);
        // GPU detection after the first release; recorded in this session when it finishes in time
        await Promise.race([detection, new Promise((r) => setTimeout(r, 2_000).unref())]).catch(() => undefined);
      }
      this.closeOpenWork(rt);
      rt.record('session_finished', {
        reason: outcome.reason, exitCode, iterations: rt.iterationCount, inferences: rt.inferenceCount, toolCalls: rt.toolsCalled,
        nudges: rt.nudges, midChainNudges: rt.midChainNudges, finalAnswerChars: outcome.finalAnswer.length,
        ...(error ? { error } : {}),
      }, null, root);
      recorder.finish({ terminationReason: outcome.reason, exitCode, error: error ?? null });
      root.setAttribute(LOUPE_ATTR.TERMINATION_REASON, outcome.reason);
      if (exitCode !== 0) failSpan(root, outcome.reason, error);
      root.end();
      this.finished = true;
      this.queue.clear();
      await Promise.allSettled(external.map((s) => s.close()));
    }
    return { sessionId: o.sessionId, pid: this.pid, terminationReason: outcome.reason, exitCode, finalAnswer: outcome.finalAnswer, iterations: rt.iterationCount, error };
  }

  /** Spec error case: an external MCP server that fails to connect is recorded; the session goes on without it. */
  private async connectExternalTools(rt: LoopRuntime): Promise<McpToolSource[]> {
    const configs = this.options.externalMcp ?? [];
    if (!configs.length) return [];
    const { sources, failures } = await connectExternalServers(configs);
    for (const f of failures) rt.record('mcp_server_failed', { ...f }, null);
    for (const s of sources) rt.record('mcp_server_connected', { name: s.name, tools: s.definitions().map((d) => d.name) }, null);
    rt.tools = rt.tools.withSources(sources);
    return sources;
  }

  /** What the host offers, so a missing model is visible in the record before anything waits on it. */
  private async recordModels(rt: LoopRuntime): Promise<void> {
    const { provider, model } = this.options;
    try {
      const models = await provider.listModels();
      const bare = (m: string) => m.replace(/:latest$/, '');
      rt.record('models_listed', { count: models.length, models, hasModel: models.some((m) => bare(m) === bare(model)) });
    } catch (e) {
      rt.record('models_listed', { error: (e as Error).message });
    }
  }

  /** Spec invariant 1: the slot is acquired before the loop; an abort while queued acquires nothing. */
  private async acquireSlot(rt: LoopRuntime): Promise<boolean> {
    const { provider, model } = this.options;
    const { span } = startChildSpan(rt.rootCtx, SPAN_NAMES.slotWait, SpanKind.INTERNAL, { [GEN_AI.REQUEST_MODEL]: model });
    const started = Date.now();
    rt.record('slot_wait_started', { model, host: provider.host }, null, span);
    try {
      const ok = await provider.acquireSlot(model, rt.signal, (s) => {
        span.setAttribute(LOUPE_ATTR.SLOT_QUEUE_POSITION, s.queuePosition);
        rt.record('slot_status', { ...s }, null, span);
      });
      const waitMs = Date.now() - started;
      span.setAttribute(LOUPE_ATTR.SLOT_WAIT_MS, waitMs);
      if (!ok) {
        rt.throwIfAborted();
        throw new SessionAbortedError('slot not granted');
      }
      rt.record('slot_acquired', { model, waitMs }, null, span);
      return true;
    } finally {
      span.end();
    }
  }

  private async loop(rt: LoopRuntime): Promise<LoopOutcome> {
    for (let step = 1; ; step++) {
      rt.throwIfAborted();
      const iteration = beginIteration(rt, 'step');
      this.injectQueuedMessages(rt, iteration);
      await prepareContext(rt, iteration);
      const result = await this.callModel(rt, iteration);

      if (result.toolCalls.length) {
        rt.append({ role: 'assistant', kind: 'assistant', content: result.content, toolCalls: result.toolCalls, thinking: result.thinking }, iteration);
        await executeToolCalls(rt, iteration, result.toolCalls);
        const s = this.settings;
        const decision = evaluateLoopControl(rt.calls, {
          iteration: step, maxIterations: s.maxToolIterations, repeatThreshold: s.repeatThreshold, sameToolThreshold: s.sameToolThreshold,
          errorRepeatThreshold: s.errorRepeatThreshold, cycle: { repetitions: s.cycleRepetitions },
        });
        if (decision.kind !== 'continue') rt.record(decision.kind, { ...decision }, iteration);
        endIteration(rt, iteration, decision.kind === 'continue' ? 'tool_calls' : decision.kind);
        if (decision.kind !== 'continue') return { reason: decision.kind, finalAnswer: '' };
        continue;
      }

      const hallucination = detectHallucinatedToolOutput({ text: result.content, toolsCalledSoFar: rt.toolsCalled, midChainNudgesSoFar: rt.midChainNudges, maxMidChainNudges: this.settings.maxMidChainNudges });
      if (hallucination) {
        // the fabricated output never enters the context or the transcript: the event keeps the evidence
        rt.record('hallucination_stripped', { markers: hallucination.markers, strippedText: hallucination.strippedText, content: result.content.slice(0, 4000) }, iteration);
        if (hallucination.kind === 'mid_chain_nudges_exhausted') {
          rt.append({ role: 'assistant', kind: 'assistant', content: hallucination.strippedText, thinking: result.thinking }, iteration);
          rt.record('mid_chain_nudge', { exhausted: true, nudgesSoFar: hallucination.midChainNudgesSoFar, max: hallucination.maxMidChainNudges }, iteration);
          endIteration(rt, iteration, 'nudges_exhausted');
          return { reason: 'nudges_exhausted', finalAnswer: hallucination.strippedText };
        }
        rt.midChainNudges++;
        rt.record('mid_chain_nudge', { markers: hallucination.markers, count: rt.midChainNudges }, iteration);
        rt.append({ role: 'user', kind: 'nudge', content: hallucination.message }, iteration);
        endIteration(rt, iteration, 'mid_chain_nudge');
        continue;
      }

      rt.append({ role: 'assistant', kind: 'assistant', content: result.content, thinking: result.thinking }, iteration);
      const nudge = rt.toolsEnabled
        ? detectNudgeReason({ text: result.content, iteration: step, maxIterations: this.settings.maxToolIterations, toolsCalledSoFar: rt.toolsCalled, nudgesSoFar: rt.nudges, maxNudges: this.settings.maxNudges })
        : null;
      if (nudge?.kind === 'nudge') {
        rt.nudges++;
        rt.record('nudge', { reason: nudge.reason, evidence: nudge.evidence, count: rt.nudges }, iteration);
        rt.append({ role: 'user', kind: 'nudge', content: nudge.message }, iteration);
        endIteration(rt, iteration, 'nudge');
        continue;
      }
      if (nudge?.kind === 'nudges_exhausted') {
        rt.record('nudge', { reason: nudge.reason, evidence: nudge.evidence, exhausted: true, nudgesSoFar: nudge.nudgesSoFar, max: nudge.maxNudges }, iteration);
        endIteration(rt, iteration, 'nudges_exhausted');
        return { reason: 'nudges_exhausted', finalAnswer: result.content };
      }
      endIteration(rt, iteration, 'final_answer');
      return { reason: 'completed', finalAnswer: result.content };
    }
  }

  /** One model call with the session's tools; the spec's recoverable provider errors are handled here. */
  private async callModel(rt: LoopRuntime, iteration: number): Promise<LlmCompletionResult> {
    for (let attempt = 0; ; attempt++) {
      const tools = rt.toolsEnabled ? rt.tools.definitions() : [];
      try {
        return await runInference(rt, iteration, { purpose: 'step', messages: renderForModel(rt.context), tools });
      } catch (e) {
        if (!ProviderError.isInstance(e) || attempt >= 2) throw e;
        if (e.info.kind === 'tools_unsupported' && rt.toolsEnabled) {
          rt.toolsEnabled = false;
          rt.record('tools_disabled', { reason: 'tools_unsupported', message: e.info.message }, iteration);
          continue;
        }
        if (e.info.kind === 'context_too_long') {
          rt.record('context_overflow', { reason: 'provider_rejected', message: e.info.message, phase: 'provider' }, iteration);
          await compactOrTrim(rt, iteration, 'provider_context_too_long');
          continue;
        }
        throw e;
      }
    }
  }

  /** Spec invariant 9: after an abnormal break, one tools-disabled call produces a summary. */
  private async epilogue(rt: LoopRuntime, reason: TerminationReason): Promise<string> {
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

  private injectQueuedMessages(rt: LoopRuntime, iteration: number): void {
    for (const m of this.queue.drain()) {
      rt.append({ role: 'user', kind: 'injected', content: m.text }, iteration);
      rt.record('user_message_injected', { chars: m.text.length, waitedMs: Date.now() - m.queuedAt }, iteration);
    }
  }

  private failure(rt: LoopRuntime, e: unknown, current: LoopOutcome): { outcome: LoopOutcome; exitCode: number; error?: string } {
    if (rt.signal.aborted || e instanceof SessionAbortedError) {
      rt.record('abort', { reason: String(rt.signal.reason ?? (e as Error).message), phase: rt.iterationSpan ? 'iteration' : 'outside_iteration' });
      return { outcome: { reason: 'aborted', finalAnswer: current.finalAnswer }, exitCode: 0 };
    }
    if (SlotWaitTimeoutError.isInstance(e)) {
      rt.record('error', { kind: 'slot_timeout', message: e.message, waitedMs: e.waitedMs });
      return { outcome: { reason: 'slot_timeout', finalAnswer: '' }, exitCode: 1, error: e.message };
    }
    const info = ProviderError.isInstance(e) ? e.info : { kind: 'internal', message: (e as Error)?.message ?? String(e) };
    rt.record('error', { ...info });
    const reason: TerminationReason = ProviderError.isInstance(e) && e.info.kind === 'context_too_long' ? 'context_overflow' : 'provider_error';
    return { outcome: { reason, finalAnswer: '' }, exitCode: 1, error: info.message };
  }

  /** Iterations and tool calls cut short by a kill or an error are closed as aborted/failed. */
  private closeOpenWork(rt: LoopRuntime): void {
    const status = rt.signal.aborted ? 'aborted' : 'failed';
    for (const call of rt.recorder.openToolCalls()) {
      rt.recorder.toolCall({ ...call, status: 'aborted', error: call.error ?? 'Tool execution aborted' });
    }
    for (const it of rt.recorder.openIterations()) {
      if (rt.iterationSpan) failSpan(rt.iterationSpan, status);
      endIteration(rt, it.idx, status, status);
    }
  }
}
