// Event names, payload patterns and event references as scenarios write them, checked against the
// journal's vocabulary at load: an unknown operator, event, field or reference is bad input in a
// trigger and an expectation that fails in expect/success (scenario-parser.ts).
import { z } from 'zod';
import { isJournalEventType } from '../../journal/journal-events';
import { PAYLOAD_OPERATORS } from '../expectations/payload-match';
import { eventTypeProblem, payloadFieldProblems, refProblems } from './scenario-vocabulary';

export const eventName = z
  .string()
  .min(1)
  .superRefine((name, ctx) => {
    const problem = eventTypeProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

function unknownOperators(value: unknown, path: PropertyKey[] = []): Array<{ path: PropertyKey[]; op: string }> {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownOperators(v, [...path, i]));
  return Object.entries(value).flatMap(([k, v]) => [
    ...(k.startsWith('$') && k !== '$ref' && !PAYLOAD_OPERATORS.includes(k) ? [{ path: [...path, k], op: k }] : []),
    ...(k === '$ref' ? [] : unknownOperators(v, [...path, k])),
  ]);
}

/** A deep partial payload; `$`-keys are operators ($gte, $contains…) or references ($ref), checked wherever they sit. */
export const payloadMatch = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  for (const bad of unknownOperators(value)) {
    ctx.addIssue({
      code: 'custom',
      path: bad.path,
      message: `unknown payload operator ${bad.op} (known: ${[...PAYLOAD_OPERATORS, '$ref'].join(', ')})`,
    });
  }
});

/** `with:` is checked against the fields of the event it belongs to, references included. */
export function checkWith(ctx: z.RefinementCtx, type: string, want: Record<string, unknown> | undefined, withKey = 'with'): void {
  if (!want || !isJournalEventType(type)) return;
  for (const p of [...payloadFieldProblems(type, want), ...refProblems(type, want)]) {
    ctx.addIssue({ code: 'custom', path: [withKey, ...p.path], message: p.message });
  }
}

/** Another event of the session: its type alone (the first one), or with a pattern and an occurrence. */
export const eventRef = z.union([
  eventName,
  z
    .strictObject({ event: eventName, with: payloadMatch.optional(), occurrence: z.number().int().min(1).max(1_000_000).optional() })
    .superRefine((r, ctx) => checkWith(ctx, r.event, r.with)),
]);

export type EventRefDocument = z.infer<typeof eventRef>;
