// A session's view of the journal: assigns per-session sequence numbers, stamps every row with the
// trace/span it belongs to, and keeps the open rows (session, running iterations, live tool calls)
// so each write is a full snapshot. The agent loop records through this and nothing else.
import { hostname } from 'node:os';
import { trace, type Span } from '@opentelemetry/api';
import { eventWith, type EventType, type JournalEventMap } from './journal-events';
import {
  TERMINAL_TOOL_CALL_STATUSES,
  type EventRow,
  type IterationRow,
  type JournalEntry,
  type MessageRow,
  type SessionRow,
  type ToolCallRow,
  type TraceIds,
} from './journal-entry';

export interface JournalSink {
  append(entry: JournalEntry): void;
}

export type NewSession = Omit<
  SessionRow,
  | 'status'
  | 'terminationReason'
  | 'exitCode'
  | 'error'
  | 'iterations'
  | 'toolCallCount'
  | 'inputTokens'
  | 'outputTokens'
  | 'approvalWaitMs'
  | 'finishedAt'
  | 'traceId'
  | 'spanId'
  | 'startedAt'
  | 'ownerPid'
  | 'ownerHost'
>;

export interface RecordOptions {
  iteration?: number | null;
  span?: Span;
}

function idsOf(span: Span | undefined): TraceIds | undefined {
  const ctx = span?.spanContext();
  return ctx && ctx.traceId !== '00000000000000000000000000000000' ? { traceId: ctx.traceId, spanId: ctx.spanId } : undefined;
}

// read once: os.hostname() is a system call, and every session's row names its owner
let ownerHost: string | undefined;

export class SessionRecorder {
  private seq = 0;
  private nextMessageIdx = 0;
  private readonly session: SessionRow;
  private readonly iterations = new Map<number, IterationRow>();
  private readonly toolCalls = new Map<string, ToolCallRow>();
  private readonly root: TraceIds;

  constructor(
    private readonly sink: JournalSink,
    init: NewSession,
    rootSpan: Span,
    private readonly now = () => new Date(),
  ) {
    this.root = idsOf(rootSpan) ?? { traceId: '0'.repeat(32), spanId: '0'.repeat(16) };
    this.session = {
      ...init,
      ownerPid: process.pid,
      ownerHost: (ownerHost ??= hostname()),
      status: 'running',
      terminationReason: null,
      exitCode: null,
      error: null,
      iterations: 0,
      toolCallCount: 0,
      inputTokens: 0,
      outputTokens: 0,
      approvalWaitMs: 0,
      startedAt: this.now(),
      finishedAt: null,
      ...this.root,
    };
    this.sink.append({ kind: 'session', row: { ...this.session } });
  }

  get sessionId(): string {
    return this.session.id;
  }

  get traceId(): string {
    return this.root.traceId;
  }

  private ids(span?: Span): TraceIds {
    return idsOf(span) ?? idsOf(trace.getActiveSpan()) ?? this.root;
  }

  event<K extends EventType>(type: K, payload: JournalEventMap[K], opts: RecordOptions = {}): number {
    const seq = this.seq++;
    const row: EventRow = eventWith(
      { type, payload },
      { sessionId: this.session.id, seq, iteration: opts.iteration ?? null, createdAt: this.now(), ...this.ids(opts.span) },
    );
    this.sink.append({ kind: 'event', row });
    return seq;
  }

  /** Appends a transcript message and returns its index. */
  message(
    m: Omit<MessageRow, 'sessionId' | 'idx' | 'createdAt' | 'traceId' | 'spanId' | 'compactedAt'> & { compactedAt?: Date | null },
    opts: RecordOptions = {},
  ): number {
    const idx = this.nextMessageIdx++;
    this.sink.append({
      kind: 'message',
      row: { ...m, compactedAt: m.compactedAt ?? null, sessionId: this.session.id, idx, createdAt: this.now(), ...this.ids(opts.span) },
    });
    return idx;
  }

  /** Marks a recorded message as pruned; its stored content is kept. */
  messageCompacted(idx: number, compactedAt: Date): void {
    this.sink.append({ kind: 'message_compacted', sessionId: this.session.id, idx, compactedAt });
  }

  iterationStarted(idx: number, model: string, fields: Partial<IterationRow> = {}, opts: RecordOptions = {}): void {
    const row: IterationRow = {
      sessionId: this.session.id,
      idx,
      model,
      status: 'running',
      outcome: null,
      finishReason: null,
      toolCallSource: null,
      toolCallCount: 0,
      inputTokens: null,
      outputTokens: null,
      estimatedPromptTokens: null,
      contextMessages: null,
      wallMs: null,
      firstTokenMs: null,
      loadMs: null,
      prefillMs: null,
      decodeMs: null,
      serverQueueMs: null,
      approvalWaitMs: 0,
      startedAt: this.now(),
      finishedAt: null,
      ...this.ids(opts.span),
      ...fields,
    };
    this.iterations.set(idx, row);
    this.session.iterations = Math.max(this.session.iterations, idx + 1);
    this.sink.append({ kind: 'iteration', row: { ...row } });
  }

  iterationUpdated(idx: number, fields: Partial<IterationRow>, done = false): void {
    const row = this.iterations.get(idx);
    if (!row) return;
    Object.assign(row, fields);
    if (done) {
      row.finishedAt = row.finishedAt ?? this.now();
      this.iterations.delete(idx);
      this.session.inputTokens += row.inputTokens ?? 0;
      this.session.outputTokens += row.outputTokens ?? 0;
    }
    this.sink.append({ kind: 'iteration', row: { ...row } });
    // keep the session row's counters current for live readers (deduplicated within a batch)
    if (done) this.sink.append({ kind: 'session', row: { ...this.session } });
  }

  toolCall(call: Pick<ToolCallRow, 'id' | 'iteration' | 'name' | 'arguments'> & Partial<ToolCallRow>, opts: RecordOptions = {}): void {
    const existing = this.toolCalls.get(call.id);
    // a call is recorded before it runs; once it runs, its row points at its execute_tool span
    const row: ToolCallRow = existing
      ? { ...existing, ...call, ...idsOf(opts.span) }
      : {
          sessionId: this.session.id,
          status: 'pending',
          result: null,
          error: null,
          durationMs: null,
          createdAt: this.now(),
          finishedAt: null,
          ...this.ids(opts.span),
          ...call,
        };
    if (!existing) this.session.toolCallCount++;
    const terminal = TERMINAL_TOOL_CALL_STATUSES.has(row.status);
    if (terminal) {
      row.finishedAt = row.finishedAt ?? this.now();
      this.toolCalls.delete(call.id);
    } else {
      this.toolCalls.set(call.id, row);
    }
    this.sink.append({ kind: 'tool_call', row: { ...row } });
  }

  /** Time an iteration (and so the session) waited for approvals. */
  approvalWait(idx: number, ms: number): void {
    this.session.approvalWaitMs += ms;
    const row = this.iterations.get(idx);
    if (row) this.iterationUpdated(idx, { approvalWaitMs: row.approvalWaitMs + ms });
    this.sink.append({ kind: 'session', row: { ...this.session } });
  }

  /** Tool calls not yet in a terminal state (recorded as aborted when a session is killed). */
  openToolCalls(): ToolCallRow[] {
    return [...this.toolCalls.values()];
  }

  openIterations(): IterationRow[] {
    return [...this.iterations.values()];
  }

  finish(fields: { terminationReason: string; exitCode: number; error?: string | null }): void {
    Object.assign(this.session, {
      status: 'finished',
      terminationReason: fields.terminationReason,
      exitCode: fields.exitCode,
      error: fields.error ?? null,
      finishedAt: this.now(),
    });
    this.sink.append({ kind: 'session', row: { ...this.session } });
  }

  snapshot(): Readonly<SessionRow> {
    return { ...this.session };
  }
}
