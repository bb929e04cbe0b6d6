// Builds what a trial is judged on from what the journal recorded (its in-memory ledger, or the rows
// read back from Postgres: the same shape) and what the stand-in received.
import { eventWith, isJournalEvent } from '../journal/journal-events';
import type { StandinRequestRecord } from '../standin/standin-request-log';
import type { RecordedRequest, RecordedSession } from './expectations/recorded-session';

/** What a recorded session is judged from: the journal's rows, as kept in memory or read back. */
export interface RecordedSource {
  session: { terminationReason: string | null; iterations: number; toolCallCount: number };
  /** rows of a type the vocabulary does not declare (a newer Loupe's) are left out */
  events: ReadonlyArray<{ seq: number; type: string; payload: unknown; iteration: number | null; traceId: string }>;
  messages: ReadonlyArray<{
    idx: number;
    role: string;
    kind: string;
    content: string;
    compactedAt: Date | null;
    iteration: number | null;
    toolName: string | null;
  }>;
  iterations: ReadonlyArray<{
    idx: number;
    status: string;
    inputTokens: number | null;
    outputTokens: number | null;
    firstTokenMs: number | null;
    loadMs: number | null;
    prefillMs: number | null;
    decodeMs: number | null;
    serverQueueMs: number | null;
  }>;
  toolCalls: ReadonlyArray<{ id: string; name: string; status: string }>;
}

export function recordedSession(
  detail: RecordedSource,
  extra: Pick<RecordedSession, 'finalAnswer' | 'files' | 'hostEvents' | 'requests'>,
): RecordedSession {
  return {
    terminationReason: detail.session.terminationReason,
    iterations: detail.session.iterations,
    toolCallCount: detail.session.toolCallCount,
    events: detail.events.filter(isJournalEvent).map((e) => eventWith(e, { seq: e.seq, iteration: e.iteration, traceId: e.traceId })),
    messages: detail.messages.map((m) => ({
      index: m.idx,
      role: m.role,
      kind: m.kind,
      content: m.content,
      compacted: m.compactedAt !== null,
      iteration: m.iteration,
      toolName: m.toolName,
    })),
    iterationRows: detail.iterations.map((i) => ({
      idx: i.idx,
      status: i.status,
      inputTokens: i.inputTokens,
      outputTokens: i.outputTokens,
      firstTokenMs: i.firstTokenMs,
      loadMs: i.loadMs,
      prefillMs: i.prefillMs,
      decodeMs: i.decodeMs,
      serverQueueMs: i.serverQueueMs,
    })),
    toolCalls: detail.toolCalls.map((c) => ({ id: c.id, name: c.name, status: c.status })),
    ...extra,
  };
}

interface ChatBody {
  model?: string;
  messages?: Array<{ role?: string; content?: string }>;
  tools?: Array<{ function?: { name?: string } }>;
  options?: Record<string, unknown>;
}

/** The chat requests a stand-in received, in order: what the model was sent. */
export function requestsSeen(records: readonly StandinRequestRecord[]): RecordedRequest[] {
  return records
    .filter((r) => r.path === '/api/chat' && r.body && typeof r.body === 'object')
    .map((r, i) => {
      const body = r.body as ChatBody;
      const messages = body.messages ?? [];
      return {
        index: i + 1,
        model: body.model ?? '',
        roles: messages.map((m) => m.role ?? ''),
        contents: messages.map((m) => m.content ?? ''),
        tools: (body.tools ?? []).map((t) => t.function?.name ?? ''),
        options: body.options ?? {},
      };
    });
}
