// Which sessions the janitor expires (mcp-agent-technical-spec.md §4, "Expired Session":
// JanitorService, "Container is pruned, history remains"): a session started over the API or the
// WebSocket whose last recorded activity — any event of its own, a message or an approval sent to it
// — is at least the idle limit ago. Pure: the janitor (./session-janitor.service.ts) carries it out.

export interface WatchedSession {
  sessionId: string;
  /** epoch ms of the last thing recorded for the session */
  lastActivityAt: number;
}

export interface ExpiredSession {
  sessionId: string;
  idleMs: number;
  idleTimeoutMs: number;
}

/** The sessions idle for at least `idleTimeoutMs` at `now`, longest idle first; none when the limit is 0 (off). */
export function expiredSessions(sessions: readonly WatchedSession[], now: number, idleTimeoutMs: number): ExpiredSession[] {
  if (!(idleTimeoutMs > 0)) return [];
  return sessions
    .map((s) => ({ sessionId: s.sessionId, idleMs: now - s.lastActivityAt, idleTimeoutMs }))
    .filter((s) => s.idleMs >= idleTimeoutMs)
    .sort((a, b) => b.idleMs - a.idleMs);
}

/** How often the janitor looks: a quarter of the limit (a session outlives it by at most that), between 10 ms and a minute. */
export function sweepIntervalMs(idleTimeoutMs: number): number {
  return Math.min(60_000, Math.max(10, Math.floor(idleTimeoutMs / 4)));
}

/** What a message or an approval sent to an expired session is told. */
export function expiredMessage(sessionId: string): string {
  return `session ${sessionId} has expired: it was idle past the limit (LOUPE_SESSION_IDLE_TIMEOUT_MS) and its resources were released; its history is kept — start a new session to continue`;
}
