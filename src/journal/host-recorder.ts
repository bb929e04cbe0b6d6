// Events that belong to an Ollama host rather than a session (model pulls, deletes): stored with
// session_id NULL, ordered by created_at and a process-wide sequence.
import { trace, type Span } from '@opentelemetry/api';
import { eventWith, type EventType, type JournalEventMap } from './journal-events';
import type { EventRow } from './journal-entry';
import type { JournalSink } from './session-recorder';

let hostSeq = 0;

export class HostRecorder {
  constructor(
    private readonly sink: JournalSink,
    private readonly now = () => new Date(),
  ) {}

  event<K extends EventType>(type: K, payload: JournalEventMap[K], span?: Span): void {
    const ctx = (span ?? trace.getActiveSpan())?.spanContext();
    const row: EventRow = eventWith(
      { type, payload },
      {
        sessionId: null,
        seq: hostSeq++,
        iteration: null,
        createdAt: this.now(),
        traceId: ctx?.traceId ?? '0'.repeat(32),
        spanId: ctx?.spanId ?? '0'.repeat(16),
      },
    );
    this.sink.append({ kind: 'event', row });
  }
}
