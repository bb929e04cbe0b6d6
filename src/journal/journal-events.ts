// The one vocabulary: every event type Loupe records, with its payload fields. The loop, the
// provider, the host and the journal record through it (typed); scenarios check their event names
// and `with:` fields against it; the README catalogue is generated from it.
import type { z } from 'zod';
import { APPROVAL_EVENTS } from './events/approval-events';
import { CONTEXT_EVENTS } from './events/context-events';
import { HOST_EVENTS } from './events/host-events';
import { INFERENCE_EVENTS } from './events/inference-events';
import { LOOP_EVENTS } from './events/loop-events';
import { MCP_EVENTS } from './events/mcp-events';
import { SANDBOX_EVENTS } from './events/sandbox-events';
import { SESSION_EVENTS } from './events/session-events';
import { SLOT_EVENTS } from './events/slot-events';
import { TOOL_EVENTS } from './events/tool-events';

export const JOURNAL_EVENTS = {
  ...SESSION_EVENTS,
  ...SLOT_EVENTS,
  ...INFERENCE_EVENTS,
  ...TOOL_EVENTS,
  ...APPROVAL_EVENTS,
  ...MCP_EVENTS,
  ...SANDBOX_EVENTS,
  ...LOOP_EVENTS,
  ...CONTEXT_EVENTS,
  ...HOST_EVENTS,
};

/** Catalogue sections, in README order. */
export const EVENT_GROUPS = {
  'Session lifecycle': SESSION_EVENTS,
  'Inference slots': SLOT_EVENTS,
  'Iterations and model calls': INFERENCE_EVENTS,
  'Tool calls': TOOL_EVENTS,
  Approvals: APPROVAL_EVENTS,
  'External MCP servers': MCP_EVENTS,
  'Command sandbox': SANDBOX_EVENTS,
  'Loop control': LOOP_EVENTS,
  'Context management': CONTEXT_EVENTS,
  'Host and Loupe (no session)': HOST_EVENTS,
};

export type EventType = keyof typeof JOURNAL_EVENTS;
export type JournalEventMap = { [K in EventType]: z.infer<(typeof JOURNAL_EVENTS)[K]['payload']> };

export const JOURNAL_EVENT_TYPES = Object.keys(JOURNAL_EVENTS) as EventType[];

export function isJournalEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(JOURNAL_EVENTS, value);
}

/** Anything that records events of the vocabulary. */
export type RecordEvent = <K extends EventType>(type: K, payload: JournalEventMap[K]) => void;

/** One event of the vocabulary: narrowing on `type` gives its declared payload. What every reader takes. */
export type JournalEvent = { [K in EventType]: { type: K; payload: JournalEventMap[K] } }[EventType];

/** The events of the types K (e.g. `EventOf<'nudge'>`); EventOf<EventType> is JournalEvent. */
export type EventOf<K extends EventType> = { [P in K]: { type: P; payload: JournalEventMap[P] } }[K];

/**
 * An event's type and payload with other fields (seq, iteration…), still paired for narrowing.
 * (TypeScript cannot see that `{ type: K; payload: JournalEventMap[K] }` is one member of the union:
 * the overload says so, once, here.)
 */
export function eventWith<K extends EventType, F extends object>(
  event: { type: K; payload: JournalEventMap[K] },
  fields: F,
): F & JournalEvent;
export function eventWith(event: { type: string; payload: unknown }, fields: object): object {
  return { ...fields, type: event.type, payload: event.payload };
}

/**
 * Whether a stored or sent event is one of the vocabulary. Payloads are written only through the
 * typed recorders, so a declared type vouches for its payload's fields (rows recorded under an older
 * field name are renamed when read: readRecordedPayload).
 */
export function isJournalEvent<E extends { type: string; payload: unknown }>(event: E): event is E & JournalEvent {
  return isJournalEventType(event.type) && typeof event.payload === 'object' && event.payload !== null;
}

/** The events of one type, narrowed. */
export function eventsOfType<K extends EventType, E extends { type: string }>(events: readonly E[], type: K): Array<E & EventOf<K>> {
  return events.filter((e): e is E & EventOf<K> => e.type === type);
}

/**
 * A payload as read back from Postgres, under today's field names: approval_decided named its call
 * `id` before it became `callId` (as in approval_requested); older rows are read with callId.
 */
export function readRecordedPayload(type: string, payload: Record<string, unknown>): Record<string, unknown> {
  if (type === 'approval_decided' && payload.callId === undefined && typeof payload.id === 'string') {
    const { id, ...rest } = payload;
    return { callId: id, ...rest };
  }
  return payload;
}
