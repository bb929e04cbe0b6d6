// A scenario names events and their payload fields (its termination reasons are checked where the
// expectation is, scenario-expectation-schema.ts); each name is checked against the journal's
// vocabulary at load (with the closest valid name): in a trigger a typo is bad
// input; in an expectation it makes one that can never hold (scenario-parser.ts), never one that
// passes because it matches nothing.
import type { z } from 'zod';
import { unknownNameMessage } from '../../common/closest-name';
import { JOURNAL_EVENTS, JOURNAL_EVENT_TYPES, isJournalEventType, type EventType } from '../../journal/journal-events';
import { isOperatorObject } from '../expectations/payload-match';

export interface VocabularyProblem {
  /** relative to the field being checked */
  path: Array<string | number>;
  message: string;
}

export function eventTypeProblem(name: string): string | undefined {
  return isJournalEventType(name) ? undefined : unknownNameMessage('event type', name, JOURNAL_EVENT_TYPES);
}

/** Strips optional/nullable/default wrappers to the schema that says what the value is. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema as z.ZodType & { unwrap?: () => z.ZodType; def: { type: string; innerType?: z.ZodType } };
  while (s.def.type === 'optional' || s.def.type === 'nullable' || s.def.type === 'default') {
    s = (s.def.innerType ?? s.unwrap!()) as typeof s;
  }
  return s;
}

/** Every key of a `with:` pattern must be a field the event's payload declares (nested objects too). */
function fieldProblems(schema: z.ZodType, want: unknown, where: string, path: Array<string | number>): VocabularyProblem[] {
  if (want === null || typeof want !== 'object') return [];
  if (!Array.isArray(want) && isOperatorObject(want)) return []; // operators are checked where the pattern is parsed
  const s = unwrap(schema) as z.ZodType & { def: { type: string }; shape?: Record<string, z.ZodType>; element?: z.ZodType };
  if (Array.isArray(want)) {
    return s.def.type === 'array' ? want.flatMap((w, i) => fieldProblems(s.element!, w, where, [...path, i])) : [];
  }
  if (s.def.type !== 'object' || !s.shape) return []; // records, unions, unknown: any keys
  const fields = Object.keys(s.shape);
  return Object.entries(want).flatMap(([key, value]) =>
    fields.includes(key)
      ? fieldProblems(s.shape![key], value, where, [...path, key])
      : [{ path: [...path, key], message: unknownNameMessage(`field of ${where}`, key, fields) }],
  );
}

export function payloadFieldProblems(type: EventType, want: Record<string, unknown>): VocabularyProblem[] {
  return fieldProblems(JOURNAL_EVENTS[type].payload, want, `${type} payloads`, []);
}

function topFields(type: EventType): string[] {
  return Object.keys(JOURNAL_EVENTS[type].payload.shape);
}

/**
 * `$ref`s inside a `with:` pattern: `{ $ref: field }` names a field of the same event;
 * `{ $ref: { event, with, occurrence, field } }` a field of another event — both must exist.
 */
export function refProblems(type: EventType, want: unknown, path: Array<string | number> = []): VocabularyProblem[] {
  if (want === null || typeof want !== 'object') return [];
  if (Array.isArray(want)) return want.flatMap((w, i) => refProblems(type, w, [...path, i]));
  return Object.entries(want as Record<string, unknown>).flatMap(([key, value]): VocabularyProblem[] => {
    if (key !== '$ref') return refProblems(type, value, [...path, key]);
    const at = [...path, '$ref'];
    if (typeof value === 'string') {
      const fields = topFields(type);
      return fields.includes(value.split('.')[0])
        ? []
        : [{ path: at, message: unknownNameMessage(`field of ${type} payloads`, value, fields) }];
    }
    const ref = value as { event?: unknown; field?: unknown };
    if (typeof ref !== 'object' || ref === null || typeof ref.event !== 'string' || typeof ref.field !== 'string') {
      return [{ path: at, message: 'a reference is a field name, or { event, field } (with optional with and occurrence)' }];
    }
    const eventProblem = eventTypeProblem(ref.event);
    if (eventProblem) return [{ path: [...at, 'event'], message: eventProblem }];
    const fields = topFields(ref.event as EventType);
    return fields.includes(ref.field.split('.')[0])
      ? []
      : [{ path: [...at, 'field'], message: unknownNameMessage(`field of ${ref.event} payloads`, ref.field, fields) }];
  });
}
