// What travels over the WebSocket (the MCP agent's socket events, mcp-agent-technical-spec.md §1 and
// §5, plus a session's journal events): typed maps of the events each side sends, and pure mappers
// from journal entries and stored rows to them. Journal events keep their vocabulary's names.
import type { PendingApproval } from '../approval/approval.service';
import type { EventRow, IterationRow, MessageRow, SessionRow, ToolCallRow } from '../journal/journal-entry';
import { eventWith, type EventType, type JournalEvent, type JournalEventMap } from '../journal/journal-events';
import type { InferencePurpose } from '../process/inference-step';
import { traceUrl } from '../sessions/session-verdict';
import type { LiveRun, LiveTrial } from './run-wire';

/** One journal event of a session: `seq` counts from 0 with no gaps; narrowing on `type` gives its payload. */
export type LiveEvent = JournalEvent & {
  seq: number;
  iteration: number | null;
  createdAt: string;
  traceId: string;
  spanId: string;
};

export interface LiveMessage {
  idx: number;
  role: string;
  kind: string;
  content: string;
  toolName: string | null;
  toolCallId: string | null;
  /** the calls an assistant message made, as recorded */
  toolCalls: unknown[] | null;
  iteration: number | null;
  compactedAt: string | null;
  createdAt: string;
}

/** One iteration's row as it stands (a snapshot: the last one wins), with the figures a session page shows. */
export interface LiveIteration {
  idx: number;
  model: string;
  status: string;
  outcome: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  wallMs: number | null;
  firstTokenMs: number | null;
  loadMs: number | null;
  prefillMs: number | null;
  decodeMs: number | null;
  serverQueueMs: number | null;
  approvalWaitMs: number;
  startedAt: string;
  finishedAt: string | null;
  traceId: string;
  spanId: string;
  /** the iteration in the trace store (null without LOUPE_TRACE_URL_TEMPLATE) */
  traceUrl: string | null;
}

export interface LiveSession {
  id: string;
  model: string;
  status: string;
  terminationReason: string | null;
  iterations: number;
  toolCallCount: number;
  inputTokens: number;
  outputTokens: number;
  approvalWaitMs: number;
  startedAt: string;
  finishedAt: string | null;
  trialId: string | null;
  profile: string | null;
}

/** tool:output is capped: a large result is in the session's tool call row in full */
export const TOOL_OUTPUT_MAX_CHARS = 16_384;

export interface ServerEvents {
  'system:ready': { provider: 'ollama'; model: string | null; host: string };
  'session:events': { sessionId: string; events: LiveEvent[] };
  /**
   * For a subscriber that asked for batches (`session:subscribe { batch: true }`, the viewer): what one
   * tick of a followed session brought, in order, each item as the event it would otherwise be
   * (consecutive events joined into one session:events, a snapshot only in its newest state).
   */
  'session:batch': { sessionId: string; items: SessionBatchItem[] };
  'session:message': { sessionId: string; message: LiveMessage };
  'session:message_compacted': { sessionId: string; idx: number; compactedAt: string };
  /** an iteration's row as it changed (started, its figures known, finished) */
  'session:iteration': { sessionId: string; iteration: LiveIteration };
  'session:update': { session: LiveSession };
  /** the subscriber fell behind and its buffer was dropped: events after `afterSeq` come again from Postgres; re-read the transcript */
  'session:resync': { sessionId: string; afterSeq: number; reason: 'overflow' };
  'sessions:resync': { reason: 'overflow' };
  'tool:approval_required': {
    sessionId: string;
    name: string;
    args: Record<string, unknown>;
    callId: string;
    queuePosition: number;
    totalInQueue: number;
  };
  'tool:output': { sessionId: string; callId: string; name: string; output: string; truncated: boolean; durationMs: number | null };
  'agent:error': { sessionId: string; callId?: string; name?: string; kind: string; message: string };
  /**
   * The model's output as it streams (opencode's text-delta, dexto's llm:chunk), joined per tick:
   * at most one per CHUNK_TICK_MS per session, plus one where a model call ends. Only to sockets
   * following the session, never journaled: the final text still arrives whole (session:message).
   */
  'llm:chunk': LlmChunk;
  /** an eval run's list row as it changes (started, a trial's verdict, finished): to its page and to the runs list */
  'run:update': { run: LiveRun };
  /** one trial of a followed run as it starts and as it ends (its verdict, failed checks, tokens, latency) */
  'run:trial': { runId: string; trial: LiveTrial };
  /** the subscriber fell behind and its buffer was dropped: re-read the run (or the runs list) */
  'run:resync': { runId: string; reason: 'overflow' };
  'runs:resync': { reason: 'overflow' };
  error: { code: string; message: string; callId?: string; sessionId?: string };
}

export type ServerEvent = keyof ServerEvents;

/** One server event as [name, body], typed together (what a feed queues and a batch carries). */
export type Packet<E extends ServerEvent = ServerEvent> = { [K in E]: [K, ServerEvents[K]] }[E];

/** what a session:batch carries: a session's own events, never another batch */
export type SessionBatchItem = Packet<Exclude<ServerEvent, 'session:batch'>>;

/** ServerEvents as socket.io's typed emit wants it (Server<…, ServerListeners>, Socket<…, ServerListeners>). */
export type ServerListeners = { [K in ServerEvent]: (body: ServerEvents[K]) => void };

/** One llm:chunk: the pieces of one model call that streamed during one tick. */
export interface LlmChunk {
  sessionId: string;
  /** the iteration whose model call streams (a compaction's summary names the iteration it runs in) */
  iteration: number;
  purpose: InferencePurpose;
  /** counts this session's chunks from 0 while someone follows it: a reader places and orders them by it */
  seq: number;
  /** how many streamed pieces (one per token from Ollama) this chunk joins */
  deltas: number;
  /** text and reasoning that streamed in the tick, each in order ('' when none) */
  content: string;
  thinking: string;
}

export type Ack = (answer: Record<string, unknown>) => void;

const iso = (d: Date | string | null) => (d === null ? null : typeof d === 'string' ? d : d.toISOString());

/** A recorded event (from the journal, or read back and checked with isJournalEvent) as sent. */
export function liveEvent<K extends EventType>(row: {
  seq: number;
  iteration: number | null;
  createdAt: Date | string;
  traceId: string;
  spanId: string;
  type: K;
  payload: JournalEventMap[K];
}): LiveEvent {
  return eventWith(row, {
    seq: row.seq,
    iteration: row.iteration,
    createdAt: iso(row.createdAt)!,
    traceId: row.traceId,
    spanId: row.spanId,
  });
}

export function liveMessage(row: MessageRow): LiveMessage {
  return {
    idx: row.idx,
    role: row.role,
    kind: row.kind,
    content: row.content,
    toolName: row.toolName,
    toolCallId: row.toolCallId,
    toolCalls: row.toolCalls,
    iteration: row.iteration,
    compactedAt: iso(row.compactedAt),
    createdAt: iso(row.createdAt)!,
  };
}

export function liveIteration(row: IterationRow, traceUrlTemplate?: string): LiveIteration {
  return {
    idx: row.idx,
    model: row.model,
    status: row.status,
    outcome: row.outcome,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    wallMs: row.wallMs,
    firstTokenMs: row.firstTokenMs,
    loadMs: row.loadMs,
    prefillMs: row.prefillMs,
    decodeMs: row.decodeMs,
    serverQueueMs: row.serverQueueMs,
    approvalWaitMs: row.approvalWaitMs,
    startedAt: iso(row.startedAt)!,
    finishedAt: iso(row.finishedAt),
    traceId: row.traceId,
    spanId: row.spanId,
    traceUrl: traceUrl(traceUrlTemplate, row),
  };
}

export function liveSession(row: SessionRow): LiveSession {
  return {
    id: row.id,
    model: row.model,
    status: row.status,
    terminationReason: row.terminationReason,
    iterations: row.iterations,
    toolCallCount: row.toolCallCount,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    approvalWaitMs: row.approvalWaitMs,
    startedAt: iso(row.startedAt)!,
    finishedAt: iso(row.finishedAt),
    trialId: row.trialId,
    profile: typeof row.config.profile === 'string' ? row.config.profile : null,
  };
}

export function approvalRequired(p: PendingApproval): ServerEvents['tool:approval_required'] {
  return {
    sessionId: p.sessionId,
    name: p.name,
    args: p.args,
    callId: p.callId,
    queuePosition: p.queuePosition,
    totalInQueue: p.totalInQueue,
  };
}

/** A tool call that reached its end: its output (tool:output), or a failure (agent:error); none while it runs. */
export function toolCallOutcome(row: ToolCallRow): Packet<'tool:output' | 'agent:error'> | undefined {
  if (row.status === 'completed') {
    const output = row.result ?? '';
    return [
      'tool:output',
      {
        sessionId: row.sessionId,
        callId: row.id,
        name: row.name,
        output: output.slice(0, TOOL_OUTPUT_MAX_CHARS),
        truncated: output.length > TOOL_OUTPUT_MAX_CHARS,
        durationMs: row.durationMs,
      },
    ];
  }
  if (row.status === 'failed' || row.status === 'rejected' || row.status === 'aborted') {
    return [
      'agent:error',
      { sessionId: row.sessionId, callId: row.id, name: row.name, kind: `tool_${row.status}`, message: row.error ?? row.status },
    ];
  }
  return undefined;
}

/** A session's `error` event (a provider failure, a slot timeout) as agent:error. */
export function sessionError(row: EventRow): ServerEvents['agent:error'] | undefined {
  if (row.type !== 'error' || !row.sessionId) return undefined;
  return { sessionId: row.sessionId, kind: row.payload.kind ?? 'error', message: row.payload.message };
}
