// What a trial is judged on: the session as read back from Postgres (and, on the stand-in, what the
// model was sent). Plain data, so expectations, invariants and success criteria are pure functions.
import type { JournalEvent } from '../../journal/journal-events';

/** A recorded event of the vocabulary: narrowing on `type` gives its payload. */
export type RecordedEvent = JournalEvent & {
  seq: number;
  iteration: number | null;
  traceId: string;
};

export interface RecordedMessage {
  /** position in the transcript, 0-based */
  index: number;
  role: string;
  kind: string;
  content: string;
  compacted: boolean;
  iteration: number | null;
  toolName: string | null;
}

export interface RecordedIteration {
  idx: number;
  status: string;
  inputTokens: number | null;
  outputTokens: number | null;
  firstTokenMs: number | null;
  loadMs: number | null;
  prefillMs: number | null;
  decodeMs: number | null;
  serverQueueMs: number | null;
}

export interface RecordedToolCall {
  id: string;
  name: string;
  status: string;
}

/** One request the model received, as the stand-in logged it (scripted runs only). */
export interface RecordedRequest {
  /** 1-based, chat requests in arrival order */
  index: number;
  model: string;
  roles: string[];
  contents: string[];
  /** names of the tools offered natively (text-mode models get them in the system prompt instead) */
  tools: string[];
  options: Record<string, unknown>;
}

export interface RecordedSession {
  terminationReason: string | null;
  iterations: number;
  toolCallCount: number;
  finalAnswer: string;
  events: RecordedEvent[];
  /** host-level events of the trial's own stand-ins (GPU detection), recorded with no session */
  hostEvents: JournalEvent[];
  messages: RecordedMessage[];
  iterationRows: RecordedIteration[];
  toolCalls: RecordedToolCall[];
  /** workspace files named by `file` expectations and success criteria: path → content (undefined = absent) */
  files: Record<string, string | undefined>;
  /** what the stand-in received; null against a real Ollama */
  requests: RecordedRequest[] | null;
}
