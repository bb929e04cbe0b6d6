// The direct process: one session of the agentic loop for Ollama models, behind the spec's handle
// (pid, sendMessage, kill, done). It sets the session up (records, system prompt, slot), runs the
// loop (./agent-loop) and the epilogue, and always closes what it opened: the slot is released in
// `finally` (spec invariant 1), open iterations and tool calls are closed, session_finished is last.
import { context } from '@opentelemetry/api';
import type { JournalSink } from '../journal/session-recorder';
import { SessionRecorder } from '../journal/session-recorder';
import { ProviderError, SlotWaitTimeoutError } from '../provider/provider-errors';
import { LOUPE_ATTR, SPAN_NAMES, GEN_AI } from '../telemetry/gen-ai-attributes';
import { runEpilogue, runLoop, type LoopOutcome } from './agent-loop';
import { SessionExpiredReason } from './expiry-reason';
import { runGraceTurn } from './grace-turn';
import { endIteration } from './inference-step';
import { ContextWillOverflowError, LoopRuntime, SessionAbortedError } from './loop-runtime';
import { endSessionSpan, failSpan, startChildSpan, startSessionSpan } from './loop-tracing';
import { MessageQueue } from './message-queue';
import { councilToolPolicy } from './policies/council-policy';
import { needsSummaryEpilogue, type TerminationReason } from './policies/termination';
import type { DirectProcessOptions, LoopSettings, SessionHandle, SessionResult } from './process-types';
import { allocatePseudoPid } from './pseudo-pid';
import { buildSystemPrompt } from './system-prompt';
import { SpanKind } from '@opentelemetry/api';

export class DirectProcess implements SessionHandle {
  readonly pid = allocatePseudoPid();
  readonly done: Promise<SessionResult>;
  private readonly abort = new AbortController();
  private readonly queue = new MessageQueue();
  private finished = false;
  private rt?: LoopRuntime;
  /** messages queued before the session's records exist: journaled as soon as they do */
  private readonly queuedEarly: Array<{ position: number; chars: number; id?: string }> = [];

  private markRecorded!: () => void;
  readonly recorded = new Promise<void>((resolve) => (this.markRecorded = resolve));

  constructor(
    private readonly options: DirectProcessOptions,
    private readonly settings: LoopSettings,
    private readonly journal: JournalSink,
  ) {
    this.done = this.run();
    void this.done.then(
      () => this.markRecorded(),
      () => this.markRecorded(),
    );
  }

  get sessionId(): string {
    return this.options.sessionId;
  }

  sendMessage(text: string): number {
    if (this.finished) throw new Error(`session ${this.sessionId} has finished; start a new session to continue`);
    const position = this.queue.enqueue(text);
    const queued = { position, chars: text.length, id: this.queue.lastId };
    if (this.rt) this.rt.record('user_message_queued', queued);
    else this.queuedEarly.push(queued);
    return position;
  }

  kill(reason: string | SessionExpiredReason = 'killed'): void {
    if (!this.abort.signal.aborted) this.abort.abort(reason);
  }

  private async run(): Promise<SessionResult> {
    await Promise.resolve(); // let the caller hold the handle before anything is recorded
    const o = this.options;
    const agent = o.agent ?? 'loupe';
    const { span: root, ctx: rootCtx } = startSessionSpan(agent, o.sessionId, o.model, o.trialId);
    root.setAttribute(LOUPE_ATTR.PROFILE, this.settings.profile);
    const council = councilToolPolicy(o.councilRole);
    const recorder = new SessionRecorder(
      this.journal,
      {
        id: o.sessionId,
        pid: this.pid,
        agent,
        model: o.model,
        prompt: o.prompt,
        councilRole: o.councilRole ?? null,
        trialId: o.trialId ?? null,
        workspace: o.workspaceDir ?? null,
        config: { ...this.settings, host: o.provider.host },
      },
      root,
    );
    this.markRecorded();
    const rt = new LoopRuntime(o, this.settings, recorder, this.abort.signal, rootCtx, council.toolsEnabled);
    rt.record(
      'session_started',
      {
        model: o.model,
        pid: this.pid,
        host: o.provider.host,
        toolsEnabled: council.toolsEnabled,
        councilRole: o.councilRole ?? null,
        settings: { ...this.settings },
      },
      null,
      root,
    );
    this.rt = rt;
    for (const q of this.queuedEarly.splice(0)) rt.record('user_message_queued', q, null, root);
    for (const f of o.tools.connections.failed) rt.record('mcp_server_failed', f, null, root);
    for (const c of o.tools.connections.connected) rt.record('mcp_server_connected', c, null, root);
    // a server that dies mid-session is journaled when it happens; its tools then answer as errors
    const stopDeaths = o.tools.onServerDied((d) => rt.record('mcp_server_died', d, null, root));
    rt.record('tools_available', { tools: council.toolsEnabled ? o.tools.definitions().map((t) => t.name) : [] }, null, root);
    if (o.tools.sandbox) rt.record('command_sandbox', o.tools.sandbox, null, root);

    let slotAcquired = false;
    let outcome: LoopOutcome = { reason: 'completed', finalAnswer: '' };
    let exitCode = 0;
    let error: string | undefined;
    try {
      rt.append({ role: 'system', kind: 'system', content: buildSystemPrompt(council, o.systemPrompt) }, null);
      rt.append({ role: 'user', kind: 'prompt', content: o.prompt }, null);
      await this.recordModels(rt);
      slotAcquired = await this.acquireSlot(rt);
      outcome = await context.with(rootCtx, () => runLoop(rt, this.queue));
      outcome = await context.with(rootCtx, () => runGraceTurn(rt, outcome));
      if (needsSummaryEpilogue(outcome.reason, this.settings.epilogue)) outcome.finalAnswer = await runEpilogue(rt, outcome.reason);
    } catch (e) {
      ({ outcome, exitCode, error } = failureOutcome(rt, e, outcome));
    } finally {
      if (slotAcquired) {
        // GPU detection after a release is the provider's, recorded for the host: nothing to wait for here
        o.provider.releaseSlot(o.model);
        rt.record('slot_released', { model: o.model }, null, root);
      }
      closeOpenWork(rt);
      stopDeaths();
      const c = rt.counters;
      rt.record(
        'session_finished',
        {
          reason: outcome.reason,
          exitCode,
          iterations: c.iterations,
          inferences: c.inferences,
          toolCalls: c.toolsCalled,
          nudges: c.nudges,
          midChainNudges: c.midChainNudges,
          finalAnswerChars: outcome.finalAnswer.length,
          ...(error ? { error } : {}),
          approvalWaitMs: rt.approvalWaitMs,
          workingMs: Date.now() - recorder.snapshot().startedAt.getTime() - rt.approvalWaitMs,
        },
        null,
        root,
      );
      recorder.finish({ terminationReason: outcome.reason, exitCode, error: error ?? null });
      const { inputTokens, outputTokens } = recorder.snapshot();
      endSessionSpan(root, { terminationReason: outcome.reason, inputTokens, outputTokens, exitCode, error });
      this.finished = true;
      this.queue.clear();
    }
    return {
      sessionId: o.sessionId,
      pid: this.pid,
      terminationReason: outcome.reason,
      exitCode,
      finalAnswer: outcome.finalAnswer,
      iterations: rt.counters.iterations,
      error,
    };
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
}

/** How a session that threw ends: killed (aborted, exit 0), slot timeout, context overflow or provider error. */
function failureOutcome(rt: LoopRuntime, e: unknown, current: LoopOutcome): { outcome: LoopOutcome; exitCode: number; error?: string } {
  if (rt.signal.reason instanceof SessionExpiredReason) {
    const { idleMs, idleTimeoutMs } = rt.signal.reason;
    rt.record('session_expired', { idleMs, idleTimeoutMs, phase: rt.iterationSpan ? 'iteration' : 'outside_iteration' });
    return { outcome: { reason: 'expired', finalAnswer: current.finalAnswer }, exitCode: 0 };
  }
  if (rt.signal.aborted || e instanceof SessionAbortedError) {
    rt.record('abort', {
      reason: String(rt.signal.reason ?? (e as Error).message),
      phase: rt.iterationSpan ? 'iteration' : 'outside_iteration',
    });
    return { outcome: { reason: 'aborted', finalAnswer: current.finalAnswer }, exitCode: 0 };
  }
  if (e instanceof ContextWillOverflowError) {
    rt.record('error', { kind: 'context_window_will_overflow', message: e.message });
    return { outcome: { reason: 'context_overflow', finalAnswer: '' }, exitCode: 1, error: e.message };
  }
  if (SlotWaitTimeoutError.isInstance(e)) {
    rt.record('error', { kind: 'slot_timeout', message: e.message, waitedMs: e.waitedMs });
    return { outcome: { reason: 'slot_timeout', finalAnswer: '' }, exitCode: 1, error: e.message };
  }
  const info = ProviderError.isInstance(e) ? e.info : { kind: 'internal' as const, message: (e as Error)?.message ?? String(e) };
  rt.record('error', { ...info });
  const reason: TerminationReason =
    ProviderError.isInstance(e) && e.info.kind === 'context_too_long' ? 'context_overflow' : 'provider_error';
  return { outcome: { reason, finalAnswer: '' }, exitCode: 1, error: info.message };
}

/** Iterations and tool calls cut short by a kill or an error are closed as aborted/failed. */
function closeOpenWork(rt: LoopRuntime): void {
  const status = rt.signal.aborted ? 'aborted' : 'failed';
  for (const call of rt.recorder.openToolCalls()) {
    rt.recorder.toolCall({ ...call, status: 'aborted', error: call.error ?? 'Tool execution aborted' });
  }
  for (const it of rt.recorder.openIterations()) {
    if (rt.iterationSpan) failSpan(rt.iterationSpan, status);
    endIteration(rt, it.idx, status, status);
  }
}
