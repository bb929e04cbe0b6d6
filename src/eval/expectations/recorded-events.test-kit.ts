// Test fixtures write recorded events loosely (a type and the payload fields a test needs); this
// reads them as the journal's typed events, as the recorded-session builder reads stored rows.
import { isJournalEvent, type JournalEvent } from '../../journal/journal-events';
import type { RecordedEvent } from './recorded-session';

type Loose = { type: string; payload: object; seq?: number; iteration?: number | null; traceId?: string };

export function recordedEvents(events: readonly Loose[]): RecordedEvent[] {
  return events
    .map((e, i) => ({ seq: e.seq ?? i, iteration: e.iteration ?? null, traceId: e.traceId ?? 't', type: e.type, payload: e.payload }))
    .filter(isJournalEvent);
}

export function journalEvents(events: readonly Loose[]): JournalEvent[] {
  return events.map((e) => ({ type: e.type, payload: e.payload })).filter(isJournalEvent);
}
