// What the journal persists: full-row snapshots (upserted by primary key, last one wins) and
// append-only events. Plain data; the repository maps them to tables.
import type { EventType, JournalEventMap } from './journal-events';

export interface TraceIds {
  traceId: string;
  spanId: string;
}

export interface SessionRow extends TraceIds {
  id: string;
  pid: number;
  agent: string;
  model: string;
  status: 'running' | 'finished';
  terminationReason: string | null;
  exitCode: number | null;
  error: string | null;
  prompt: string;
  councilRole: string | null;
  trialId: string | null;
  workspace: string | null;
  config: Record<string, unknown>;
  /** the Loupe process running the session (a dead owner's sessions are closed as interrupted) */
  ownerPid: number;
  ownerHost: string;
  iterations: number;
  toolCallCount: number;
  inputTokens: number;
  outputTokens: number;
  /** waiting for approvals: not working time */
  approvalWaitMs: number;
  startedAt: Date;
  finishedAt: Date | null;
}

export interface MessageRow extends TraceIds {
  sessionId: string;
  idx: number;
  role: string;
  kind: string;
  content: string;
  toolCalls: unknown[] | null;
  toolCallId: string | null;
  toolName: string | null;
  thinking: string | null;
  iteration: number | null;
  compactedAt: Date | null;
  createdAt: Date;
}

export interface IterationRow extends TraceIds {
  sessionId: string;
  idx: number;
  model: string;
  status: 'running' | 'finished' | 'failed' | 'aborted';
  outcome: string | null;
  finishReason: string | null;
  toolCallSource: string | null;
  toolCallCount: number;
  inputTokens: number | null;
  outputTokens: number | null;
  estimatedPromptTokens: number | null;
  contextMessages: number | null;
  wallMs: number | null;
  firstTokenMs: number | null;
  loadMs: number | null;
  prefillMs: number | null;
  decodeMs: number | null;
  serverQueueMs: number | null;
  approvalWaitMs: number;
  startedAt: Date;
  finishedAt: Date | null;
}

export type ToolCallStatus = 'pending' | 'approved' | 'rejected' | 'executing' | 'completed' | 'failed' | 'aborted';

/** Where a tool call's life ends (the spec's pending → approved/rejected → executing → completed/failed). */
export const TERMINAL_TOOL_CALL_STATUSES: ReadonlySet<ToolCallStatus> = new Set(['completed', 'failed', 'rejected', 'aborted']);

export interface ToolCallRow extends TraceIds {
  sessionId: string;
  id: string;
  iteration: number;
  name: string;
  arguments: Record<string, unknown>;
  status: ToolCallStatus;
  result: string | null;
  error: string | null;
  durationMs: number | null;
  createdAt: Date;
  finishedAt: Date | null;
}

interface EventRowFields extends TraceIds {
  /** null for host-level events (model pulls and deletes) */
  sessionId: string | null;
  seq: number;
  iteration: number | null;
  createdAt: Date;
}

/** An event row of one type: its payload is the one declared for it (stored as jsonb). */
export type EventRowOf<K extends EventType> = { [P in K]: EventRowFields & { type: P; payload: JournalEventMap[P] } }[K];
/** Any event row; narrowing on `type` gives its payload. */
export type EventRow = EventRowOf<EventType>;

export interface EvalRunRow {
  id: string;
  /** queued: its trials are jobs for `loupe worker` processes; the last one to finish a trial closes the run */
  status: 'running' | 'queued' | 'finished' | 'interrupted' | 'failed';
  startedAt: Date;
  finishedAt: Date | null;
  scenarioCount: number;
  trialCount: number;
  passed: number;
  failed: number;
  unjudged: number;
  errored: number;
  options: Record<string, unknown>;
  loupeVersion: string | null;
  ownerPid: number;
  ownerHost: string;
  config: Record<string, unknown>;
  statistics: Record<string, unknown> | null;
}

export interface EvalTrialRow {
  id: string;
  runId: string;
  scenarioId: string;
  scenarioTitle: string;
  scenarioFile: string;
  scenarioHash: string;
  model: string;
  trialIndex: number;
  sessionId: string | null;
  /** interrupted: its process or worker died mid-trial; the session is kept (marked interrupted) and the trial is rerun as a new attempt */
  status: 'running' | 'passed' | 'failed' | 'unjudged' | 'error' | 'interrupted';
  expectations: unknown[];
  failedExpectations: unknown[];
  iterations: number;
  eventCount: number;
  durationMs: number | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  configKey: string;
  config: Record<string, unknown>;
  mode: 'scripted' | 'live' | 'sim';
  metadata: Record<string, unknown>;
  outcome: Record<string, unknown> | null;
  invariantViolations: unknown[];
  /** 1, then 2, 3… for reruns of an interrupted trial */
  attempt: number;
  /** an interrupted trial: the attempt that reran it */
  replacedBy: string | null;
  /** the `loupe worker` that ran it; null: the eval process itself */
  workerId: string | null;
}

/** One model request and its response as they crossed the wire (see eval/recording). */
export interface EvalExchangeRow {
  trialId: string;
  upstream: 'main' | 'local';
  kind: 'chat' | 'other';
  position: number;
  runId: string;
  trialIndex: number;
  model: string;
  modelDigest: string | null;
  method: string;
  path: string;
  request: unknown;
  requestHash: string;
  status: number | null;
  headers: Record<string, string>;
  headersAtMs: number | null;
  chunks: Array<[number, string]>;
  ending: 'complete' | 'dropped' | 'client_aborted' | 'upstream_error';
  endedAtMs: number;
  error: string | null;
  recordedAt: Date;
}

export interface EvalCellRow {
  runId: string;
  key: string;
  scenarioId: string;
  model: string;
  configKey: string;
  config: Record<string, unknown>;
  trials: number;
  passed: number;
  failed: number;
  unjudged: number;
  errored: number;
  statistics: Record<string, unknown>;
}

export type JournalEntry =
  | { kind: 'eval_run'; row: EvalRunRow }
  | { kind: 'eval_trial'; row: EvalTrialRow }
  | { kind: 'eval_cell'; row: EvalCellRow }
  | { kind: 'eval_exchange'; row: EvalExchangeRow }
  | { kind: 'session'; row: SessionRow }
  | { kind: 'message'; row: MessageRow }
  | { kind: 'iteration'; row: IterationRow }
  | { kind: 'tool_call'; row: ToolCallRow }
  | { kind: 'event'; row: EventRow }
  /** mark-don't-delete pruning: only compacted_at changes, the stored content stays */
  | { kind: 'message_compacted'; sessionId: string; idx: number; compactedAt: Date };

/** The session an entry belongs to: null for the host's own events, undefined for run-level rows. */
export function entrySessionId(entry: JournalEntry): string | null | undefined {
  switch (entry.kind) {
    case 'session':
      return entry.row.id;
    case 'message':
    case 'iteration':
    case 'tool_call':
    case 'event':
      return entry.row.sessionId;
    case 'message_compacted':
      return entry.sessionId;
    default:
      return undefined;
  }
}

export interface JournalBatch {
  evalRuns: EvalRunRow[];
  evalTrials: EvalTrialRow[];
  evalCells: EvalCellRow[];
  evalExchanges: EvalExchangeRow[];
  sessions: SessionRow[];
  messages: MessageRow[];
  iterations: IterationRow[];
  toolCalls: ToolCallRow[];
  events: EventRow[];
  compactions: Array<{ sessionId: string; idx: number; compactedAt: Date }>;
}

/** Collapses a run of entries into one write: upserts keep only the last snapshot per key. */
export function toBatch(entries: JournalEntry[]): JournalBatch {
  const evalRuns = new Map<string, EvalRunRow>();
  const evalTrials = new Map<string, EvalTrialRow>();
  const evalCells = new Map<string, EvalCellRow>();
  const evalExchanges = new Map<string, EvalExchangeRow>();
  const sessions = new Map<string, SessionRow>();
  const messages = new Map<string, MessageRow>();
  const iterations = new Map<string, IterationRow>();
  const toolCalls = new Map<string, ToolCallRow>();
  const events: EventRow[] = [];
  const compactions: JournalBatch['compactions'] = [];
  for (const e of entries) {
    switch (e.kind) {
      case 'eval_run':
        evalRuns.set(e.row.id, e.row);
        break;
      case 'eval_trial':
        evalTrials.set(e.row.id, e.row);
        break;
      case 'eval_cell':
        evalCells.set(`${e.row.runId}/${e.row.key}`, e.row);
        break;
      case 'eval_exchange':
        evalExchanges.set(`${e.row.trialId}/${e.row.upstream}/${e.row.kind}/${e.row.position}`, e.row);
        break;
      case 'session':
        sessions.set(e.row.id, e.row);
        break;
      case 'message':
        messages.set(`${e.row.sessionId}/${e.row.idx}`, e.row);
        break;
      case 'iteration':
        iterations.set(`${e.row.sessionId}/${e.row.idx}`, e.row);
        break;
      case 'tool_call':
        toolCalls.set(`${e.row.sessionId}/${e.row.id}`, e.row);
        break;
      case 'event':
        events.push(e.row);
        break;
      case 'message_compacted':
        compactions.push({ sessionId: e.sessionId, idx: e.idx, compactedAt: e.compactedAt });
        break;
    }
  }
  return {
    evalRuns: [...evalRuns.values()],
    evalTrials: [...evalTrials.values()],
    evalCells: [...evalCells.values()],
    evalExchanges: [...evalExchanges.values()],
    sessions: [...sessions.values()],
    messages: [...messages.values()],
    iterations: [...iterations.values()],
    toolCalls: [...toolCalls.values()],
    events,
    compactions,
  };
}
