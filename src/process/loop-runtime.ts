// The state one session's loop carries between phases, and the single place where the loop records:
// every decision goes to the journal (typed event) and onto the current iteration's span.
import type { Context, Span } from '@opentelemetry/api';
import type { TranscriptMessage } from '../context';
import type { EventType, JournalEventMap } from '../journal/journal-events';
import type { SessionRecorder } from '../journal/session-recorder';
import type { CallRecord } from './policies/call-record';
import { countLoop, NO_COUNTS, type LoopCounters, type LoopHappening } from './policies/loop-counters';
import type { DirectProcessOptions, LoopSettings } from './process-types';
import { toSpanAttributes } from './loop-tracing';

export type NewTranscriptMessage = Omit<TranscriptMessage, 'index'>;

export class LoopRuntime {
  /** what the model sees: trimmed, pruned and compacted; the full transcript is in Postgres */
  context: TranscriptMessage[] = [];
  /** every executed call of the session: detectors never see the trimmed view */
  readonly calls: CallRecord[] = [];
  counters: LoopCounters = { ...NO_COUNTS };
  approvalWaitMs = 0;
  toolsEnabled: boolean;
  /** prompt_eval_count of the last inference (actual tokens, for reactive compaction) */
  lastPromptTokens?: number;
  /** like gemini-cli: after a failed LLM compaction, later overflows only trim */
  compactionFailed = false;
  /** loop detectors look at calls from here on (a warn-first profile restarts detection after a warning) */
  loopWindowStart = 0;
  /** loop warnings given so far (gemini-cli's strikes) */
  loopStrikes = 0;
  /** the newest transcript index sent with the last step (what is new since: gemini-cli's pre-flight check) */
  lastSentIndex = -1;
  iterationSpan?: Span;
  iterationCtx: Context;

  constructor(
    readonly options: DirectProcessOptions,
    readonly settings: LoopSettings,
    readonly recorder: SessionRecorder,
    readonly signal: AbortSignal,
    readonly rootCtx: Context,
    toolsEnabled: boolean,
  ) {
    this.toolsEnabled = toolsEnabled;
    this.iterationCtx = rootCtx;
  }

  get tools(): DirectProcessOptions['tools'] {
    return this.options.tools;
  }

  /** Time spent waiting for approvals: kept on the iteration and the session, apart from working time. */
  waitedForApproval(iteration: number, ms: number): void {
    if (ms <= 0) return;
    this.approvalWaitMs += ms;
    this.recorder.approvalWait(iteration, ms);
  }

  count(happening: LoopHappening): void {
    this.counters = countLoop(this.counters, happening);
  }

  /** Journals a decision or observation and adds it to the iteration span as an event. */
  record<K extends EventType>(type: K, payload: JournalEventMap[K], iteration?: number | null, span?: Span): void {
    const target = span ?? this.iterationSpan;
    this.recorder.event(type, payload, { iteration: iteration ?? null, span: target });
    // attributes are built only for a span that is recorded (not without an OTLP endpoint)
    if (target?.isRecording()) target.addEvent(type, toSpanAttributes(payload));
  }

  /** Appends to the transcript (Postgres) and to the model's context. */
  append(m: NewTranscriptMessage, iteration: number | null): TranscriptMessage {
    const index = this.recorder.message(
      {
        role: m.role,
        kind: m.kind,
        content: m.content,
        toolCalls: m.toolCalls ?? null,
        toolCallId: m.toolCallId ?? null,
        toolName: m.toolName ?? null,
        thinking: m.thinking ?? null,
        iteration,
      },
      { span: this.iterationSpan },
    );
    const message: TranscriptMessage = { ...m, index };
    this.context.push(message);
    return message;
  }

  throwIfAborted(): void {
    if (this.signal.aborted) throw new SessionAbortedError(String(this.signal.reason ?? 'killed'));
  }
}

export class SessionAbortedError extends Error {
  constructor(readonly reason: string) {
    super(`session aborted: ${reason}`);
    this.name = 'SessionAbortedError';
  }
}

/** gemini-cli's ContextWindowWillOverflow: the request was not sent, and the session ends. */
export class ContextWillOverflowError extends Error {
  constructor(
    readonly estimatedTokens: number,
    readonly remainingTokens: number,
  ) {
    super(`the request would overflow the context window: ~${estimatedTokens} new tokens, ${remainingTokens} left after the last prompt`);
    this.name = 'ContextWillOverflowError';
  }
}
