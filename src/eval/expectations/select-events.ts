// Finding events in a recorded session: by type and pattern, in order relative to other events,
// and resolving `$ref`s to other events' fields.
import type { EventRefDocument } from '../scenario/scenario-payload-schema';
import { fieldAt, payloadMatches, type RefResolver } from './payload-match';
import type { RecordedEvent, RecordedSession } from './recorded-session';

/** `{ $ref: "field" }` reads the payload itself; `{ $ref: { event, with, occurrence, field } }` another event. */
export function sessionRefs(session: RecordedSession): RefResolver {
  const resolve: RefResolver = (ref, root) => {
    if (typeof ref === 'string') return fieldAt(root, ref);
    const r = ref as { event: string; with?: Record<string, unknown>; occurrence?: number; field: string };
    const found = matching(session, r.event, r.with, resolve)[(r.occurrence ?? 1) - 1];
    return found ? fieldAt(found.payload, r.field) : undefined;
  };
  return resolve;
}

export function matching(
  session: RecordedSession,
  type: string,
  want: Record<string, unknown> | undefined,
  resolve = sessionRefs(session),
): RecordedEvent[] {
  return session.events.filter((e) => e.type === type && (!want || payloadMatches(e.payload, want, resolve, e.payload)));
}

/** The seq of the first event a reference names (undefined when there is none). */
export function referencedSeq(session: RecordedSession, ref: EventRefDocument): number | undefined {
  const r = typeof ref === 'string' ? { event: ref } : ref;
  return matching(session, r.event, r.with)[(('occurrence' in r && r.occurrence) || 1) - 1]?.seq;
}

/** Keeps the events inside the `after`/`before` window (an unmatched reference keeps nothing). */
export function inWindow(
  session: RecordedSession,
  events: RecordedEvent[],
  order: { after?: EventRefDocument; before?: EventRefDocument },
): RecordedEvent[] {
  const after = order.after === undefined ? -1 : referencedSeq(session, order.after);
  const before = order.before === undefined ? Infinity : referencedSeq(session, order.before);
  if (after === undefined || before === undefined) return [];
  return events.filter((e) => e.seq > after && e.seq < before);
}

export function describeRef(ref: EventRefDocument): string {
  if (typeof ref === 'string') return ref;
  return `${ref.event}${ref.with ? ` ${JSON.stringify(ref.with)}` : ''}${ref.occurrence ? ` #${ref.occurrence}` : ''}`;
}
