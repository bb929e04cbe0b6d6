// The state one session's loop carries between phases, and the single place where the loop records:
// every decision goes to the journal (typed event) and onto the current iteration's span.
import type { Context, Span } from '@opentelemetry/api';
import type { TranscriptMessage } from '../context';
import type { EventType, JournalEventMap } from '../journal/journal-events';
import type { SessionRecorder } from '../journal/session-recorder';
import type { ToolRegistry } from '../tools/tool-registry';
import type { CallRecord } from './policies';
import type { DirectProcessOptions, LoopSettings } from './process-types';
import { toSpanAttributes } from './loop-tracing';

export type NewTranscriptMessage = Omit<TranscriptMessage, 'index'>;

export class LoopRuntime {
  /** what the model sees: trimmed, pruned and compacted; the full transcript is in Postgres */
  context: TranscriptMessage[] = [];
  /** every executed call of the session: detectors never see the trimmed view */
  readonly calls: CallRecord[] = [];
  toolsEnabled: boolean;
  toolsCalled = 0;
  nudges = 0;
  midChainNudges = 0;
  /** prompt_eval_count of the last inference (actual tokens, for reactive compaction) */
  lastPromptTokens?: number;
  /** like gemini-cli: after a failed LLM compaction, later overflows only trim */
  compactionFailed = false;
  /** iterations opened so far (loop steps and the epilogue) */
  iterationCount = 0;
  /** model calls made so far (compaction calls included) */
  inferenceCount = 0;
  iterationSpan?: Span;
  iterationCtx: Context;
  /** the session's tools: built-ins plus any external MCP servers that connected */
  tools: ToolRegistry;

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
    this.tools = options.tools;
  }

  /** Journals a decision or observation and adds it to the iteration span as an event. */
  record<K extends EventType>(type: K, payload: JournalEventMap[K], iteration?: number | null, span?: Span): void {
    const target = span ?? this.iterationSpan;
    this.recorder.event(type, payload, { iteration: iteration ?? null, span: target });
    target?.addEvent(type, toSpanAttributes(payload));
  }

  /** Appends to the transcript (Postgres) and to the model's context. */
  append(m: NewTranscriptMessage, iteration: number | null): TranscriptMessage {
    const index = this.recorder.message({
      role: m.role, kind: m.kind, content: m.content, toolCalls: m.toolCalls ?? null, toolCallId: m.toolCallId ?? null,
      toolName: m.toolName ?? null, thinking: m.thinking ?? null, iteration,
    }, { span: this.iterationSpan });
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
