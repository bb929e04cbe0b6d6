// What a scenario expects, and the triggers it sets, in the journal's vocabulary: event types,
// their payload fields and termination reasons are checked against it (a typo is bad input).
import { z } from 'zod';
import { MESSAGE_KINDS } from '../../context/transcript';
import { LLM_ROLES } from '../../provider/llm-types';
import { isJournalEventType } from '../../journal/journal-events';
import { PAYLOAD_OPERATORS } from '../expectations/payload-match';
import { count, durationMs } from './scenario-bounds';
import { eventTypeProblem, payloadFieldProblems, terminationProblem } from './scenario-vocabulary';

type Ctx = z.RefinementCtx;

const eventName = z.string().min(1).superRefine((name, ctx) => {
  const problem = eventTypeProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

function unknownOperators(value: unknown, path: PropertyKey[] = []): Array<{ path: PropertyKey[]; op: string }> {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownOperators(v, [...path, i]));
  return Object.entries(value).flatMap(([k, v]) => [
    ...(k.startsWith('$') && !PAYLOAD_OPERATORS.includes(k) ? [{ path: [...path, k], op: k }] : []),
    ...unknownOperators(v, [...path, k]),
  ]);
}

/** A deep partial payload; `$`-keys are operators ($gte, $contains…), checked wherever they sit. */
const payloadMatch = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  for (const bad of unknownOperators(value)) {
    ctx.addIssue({ code: 'custom', path: bad.path, message: `unknown payload operator ${bad.op} (known: ${PAYLOAD_OPERATORS.join(', ')})` });
  }
});

/** `with:` is checked against the fields of the event it belongs to. */
function checkWith(ctx: Ctx, type: string, want: Record<string, unknown> | undefined, withKey = 'with'): void {
  if (!want || !isJournalEventType(type)) return;
  for (const p of payloadFieldProblems(type, want)) ctx.addIssue({ code: 'custom', path: [withKey, ...p.path], message: p.message });
}

// Each expectation is recognised by its leading key; validating only that branch gives errors that
// name the real problem instead of a union mismatch.
const expectationBranches = {
  event: z.strictObject({ event: eventName, with: payloadMatch.optional(), count: count.optional() })
    .superRefine((e, ctx) => checkWith(ctx, e.event, e.with)),
  no_event: z.strictObject({ no_event: eventName, with: payloadMatch.optional() })
    .superRefine((e, ctx) => checkWith(ctx, e.no_event, e.with)),
  /** an event of the trial's host rather than its session (gpu_detected after the first slot release) */
  host_event: z.strictObject({ host_event: eventName, with: payloadMatch.optional(), count: count.optional() })
    .superRefine((e, ctx) => checkWith(ctx, e.host_event, e.with)),
  termination: z.strictObject({
    termination: z.string().min(1).superRefine((reason, ctx) => {
      const problem = terminationProblem(reason);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  }),
  final_answer_contains: z.strictObject({ final_answer_contains: z.string() }),
  final_answer_not_contains: z.strictObject({ final_answer_not_contains: z.string() }),
  file: z.strictObject({ file: z.string().min(1), equals: z.string().optional(), contains: z.string().optional(), exists: z.boolean().optional() }),
  iterations: z.strictObject({ iterations: count }),
  tool_calls: z.strictObject({ tool_calls: count }),
  message: z.strictObject({
    message: z.strictObject({
      role: z.enum(LLM_ROLES).optional(),
      kind: z.enum(MESSAGE_KINDS).optional(),
      contains: z.string().optional(),
      /** pruned (compacted_at set) or not */
      compacted: z.boolean().optional(),
    }),
    absent: z.boolean().optional(),
    count: count.optional(),
  }),
};

type ExpectationBranches = typeof expectationBranches;
export type Expectation = { [K in keyof ExpectationBranches]: z.infer<ExpectationBranches[K]> }[keyof ExpectationBranches];
export const EXPECTATION_KINDS = Object.keys(expectationBranches) as Array<keyof ExpectationBranches>;

export const expectation = z.unknown().transform((value, ctx): Expectation => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: `expected a mapping with one of: ${EXPECTATION_KINDS.join(', ')}` });
    return z.NEVER;
  }
  const kind = EXPECTATION_KINDS.find((k) => k in value);
  if (!kind) {
    ctx.addIssue({ code: 'custom', message: `unknown expectation (keys: ${Object.keys(value).join(', ') || 'none'}); expected one of: ${EXPECTATION_KINDS.join(', ')}` });
    return z.NEVER;
  }
  const parsed = expectationBranches[kind].safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  }
  return parsed.data as Expectation;
});

/** Something the runner does when a matching event is recorded in the session. */
const triggerShape = {
  on_event: eventName,
  with: payloadMatch.optional(),
  /** nth matching event (1 = first) */
  occurrence: z.number().int().min(1).max(1_000_000).optional(),
  after_ms: durationMs().optional(),
};

export const slotReleaseTrigger = z.strictObject(triggerShape).superRefine((t, ctx) => checkWith(ctx, t.on_event, t.with));
export const killTrigger = z.strictObject(triggerShape).superRefine((t, ctx) => checkWith(ctx, t.on_event, t.with));
export const injectTrigger = z.strictObject({ ...triggerShape, text: z.string().min(1) }).superRefine((t, ctx) => checkWith(ctx, t.on_event, t.with));

export type TriggerDocument = { on_event: string; with?: Record<string, unknown>; occurrence?: number; after_ms?: number };
export type CountSpec = z.infer<typeof count>;
