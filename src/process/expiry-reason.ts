/**
 * The janitor's kill reason (mcp-agent-technical-spec.md §4, "Expired Session"): a session killed
 * with it ends as `expired` rather than `aborted`, and records why.
 */
export class SessionExpiredReason {
  constructor(
    readonly idleMs: number,
    readonly idleTimeoutMs: number,
  ) {}

  toString(): string {
    return `expired: idle for ${this.idleMs} ms, past the limit of ${this.idleTimeoutMs} ms`;
  }
}
