// A session as the journal recorded it, kept in memory from the journal's own stream: the same
// snapshots Postgres receives (the last one per key wins), in emit order. The eval judges a trial
// from this instead of reading the session back (a flush and five queries per trial); Postgres is
// cross-checked against it once per run.
import type { EventRow, IterationRow, JournalEntry, MessageRow, SessionRow, ToolCallRow } from './journal-entry';

export interface LedgerDetail {
  session: SessionRow;
  messages: MessageRow[];
  iterations: IterationRow[];
  toolCalls: ToolCallRow[];
  events: EventRow[];
}

export class SessionLedger {
  private session?: SessionRow;
  private readonly messages = new Map<number, MessageRow>();
  private readonly iterations = new Map<number, IterationRow>();
  private readonly toolCalls = new Map<string, ToolCallRow>();
  private readonly events: EventRow[] = [];

  constructor(readonly sessionId: string) {}

  apply(entry: JournalEntry): void {
    switch (entry.kind) {
      case 'session':
        if (entry.row.id === this.sessionId) this.session = entry.row;
        return;
      case 'message':
        if (entry.row.sessionId === this.sessionId) this.messages.set(entry.row.idx, entry.row);
        return;
      case 'iteration':
        if (entry.row.sessionId === this.sessionId) this.iterations.set(entry.row.idx, entry.row);
        return;
      case 'tool_call':
        // a Map keeps the first insertion's place: calls stay in the order they were created
        if (entry.row.sessionId === this.sessionId) this.toolCalls.set(entry.row.id, entry.row);
        return;
      case 'event':
        if (entry.row.sessionId === this.sessionId) this.events.push(entry.row);
        return;
      case 'message_compacted': {
        const m = entry.sessionId === this.sessionId ? this.messages.get(entry.idx) : undefined;
        if (m) this.messages.set(entry.idx, { ...m, compactedAt: entry.compactedAt });
        return;
      }
      default:
        return;
    }
  }

  /** Null until the session's first row was seen. */
  detail(): LedgerDetail | null {
    if (!this.session) return null;
    const byIdx = <T extends { idx: number }>(rows: Iterable<T>) => [...rows].sort((a, b) => a.idx - b.idx);
    return {
      session: this.session,
      messages: byIdx(this.messages.values()),
      iterations: byIdx(this.iterations.values()),
      toolCalls: [...this.toolCalls.values()],
      events: [...this.events].sort((a, b) => a.seq - b.seq),
    };
  }

  get eventCount(): number {
    return this.events.length;
  }
}
