/** What the expectations are checked against: the session as read back from Postgres. */
export interface RecordedSession {
  terminationReason: string | null;
  iterations: number;
  toolCallCount: number;
  finalAnswer: string;
  events: Array<{ type: string; payload: Record<string, unknown>; traceId: string }>;
  /** host-level events of the trial's own stand-ins (GPU detection), recorded with no session */
  hostEvents: Array<{ type: string; payload: Record<string, unknown> }>;
  messages: Array<{ role: string; kind: string; content: string; compacted: boolean }>;
  /** workspace files named by `file` expectations: path → content (undefined = absent) */
  files: Record<string, string | undefined>;
}
