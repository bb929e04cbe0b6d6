// What a scenario expects, in the journal's vocabulary: event types, their payload fields and
// termination reasons are checked against it (a typo makes an expectation that fails). `expect:` is for scripted runs
// (exact); `success:` is for live models (what a good outcome looks like, whatever the path).
import { z } from 'zod';
import { MESSAGE_KINDS } from '../../context/transcript';
import { LLM_ROLES } from '../../provider/llm-types';
import { count, recordedNumber } from './scenario-bounds';
import { unknownNameMessage } from '../../common/closest-name';
import { checkWith, eventName, eventRef, payloadMatch } from './scenario-payload-schema';
import { TERMINATION_REASONS } from '../../journal/events/loop-vocabulary';

const occurrence = recordedNumber('an occurrence (1 is the first)', 1, 1_000_000);

/** One of `known` (editors are offered them); any other text is a name no message has: the expectation can never hold. */
const oneOf = <T extends string>(what: string, known: readonly T[]) =>
  z
    .string()
    .superRefine((value, ctx) => {
      if (!(known as readonly string[]).includes(value)) ctx.addIssue({ code: 'custom', message: unknownNameMessage(what, value, known) });
    })
    .meta({ enum: [...known] }) as unknown as z.ZodType<T>;
const role = oneOf('message role', LLM_ROLES);

/** A tool name an expectation wants to find: an empty one names no tool, so it can never be found. */
const wantedTool = z.string().superRefine((name, ctx) => {
  if (!name) ctx.addIssue({ code: 'custom', message: 'an empty name names no tool' });
});

/** A `regex:` of any expectation: checked when the scenario loads, not when a trial is judged. */
const regex = z.string().superRefine((r, ctx) => {
  try {
    new RegExp(r);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: `not a regular expression: ${(e as Error).message}` });
  }
});

/** Text checks: at least one of them. */
const textMatch = z
  .strictObject({
    contains: z.string().optional(),
    not_contains: z.string().optional(),
    equals: z.string().optional(),
    regex: regex.optional(),
  })
  .refine((t) => Object.keys(t).length > 0, { message: 'give contains, not_contains, equals or regex' });

// Each expectation is recognised by its leading key; validating only that branch gives errors that
// name the real problem instead of a union mismatch.
export const expectationBranches = {
  event: z
    .strictObject({
      event: eventName,
      with: payloadMatch.optional(),
      count: count.optional(),
      /** the n-th event of this type (1-based) must match `with` */
      occurrence: occurrence.optional(),
      /** only events after (before) the first event matching this reference count */
      after: eventRef.optional(),
      before: eventRef.optional(),
    })
    .refine((e) => e.occurrence === undefined || e.count === undefined, { message: 'give count or occurrence, not both' })
    .superRefine((e, ctx) => checkWith(ctx, e.event, e.with)),
  no_event: z
    .strictObject({ no_event: eventName, with: payloadMatch.optional(), after: eventRef.optional(), before: eventRef.optional() })
    .superRefine((e, ctx) => checkWith(ctx, e.no_event, e.with)),
  /** an event of the trial's host rather than its session (gpu_detected after the first slot release) */
  host_event: z
    .strictObject({ host_event: eventName, with: payloadMatch.optional(), count: count.optional() })
    .superRefine((e, ctx) => checkWith(ctx, e.host_event, e.with)),
  /** editors are offered the reasons (the schema's enum); the loader names the closest one to a typo */
  termination: z.strictObject({ termination: oneOf('termination reason', TERMINATION_REASONS) }),
  final_answer: z.strictObject({ final_answer: textMatch }),
  final_answer_contains: z.strictObject({ final_answer_contains: z.string() }),
  final_answer_not_contains: z.strictObject({ final_answer_not_contains: z.string() }),
  file: z
    .strictObject({
      file: z.string().superRefine((f, ctx) => {
        if (!f) ctx.addIssue({ code: 'custom', message: 'an empty path names no file' });
      }),
      equals: z.string().optional(),
      contains: z.string().optional(),
      regex: regex.optional(),
      exists: z.boolean().optional(),
    })
    .superRefine((e, ctx) => {
      const content = (['equals', 'contains', 'regex'] as const).filter((k) => e[k] !== undefined);
      if (e.exists === false && content.length)
        ctx.addIssue({
          code: 'custom',
          path: [content[0]],
          message: `exists: false and ${content.join(', ')}: a file that does not exist has no content to match`,
        });
    }),
  iterations: z.strictObject({ iterations: count }),
  tool_calls: z.strictObject({ tool_calls: count }),
  tools_used: z.strictObject({ tools_used: z.array(wantedTool).min(1) }),
  tools_not_used: z.strictObject({ tools_not_used: z.array(z.string().min(1)).min(1) }),
  message: z.strictObject({
    message: z.strictObject({
      role: role.optional(),
      kind: oneOf('message kind', MESSAGE_KINDS).optional(),
      contains: z.string().optional(),
      equals: z.string().optional(),
      regex: regex.optional(),
      /** pruned (compacted_at set) or not */
      compacted: z.boolean().optional(),
      /** recorded in this iteration (0-based, as in the journal) */
      iteration: recordedNumber('an iteration', 0).optional(),
      /** a tool result of this tool */
      tool: wantedTool.optional(),
      /** the message at this transcript position (0-based), or the last one */
      position: recordedNumber('a transcript position', 0).optional(),
      last: z.boolean().optional(),
    }),
    absent: z.boolean().optional(),
    count: count.optional(),
  }),
  /** what the model was sent (the stand-in's log: scripted runs) */
  request: z.strictObject({
    request: z.union([recordedNumber('a request number (1 is the first)', 1), z.literal('last')], {
      error: 'expected a request number (1 is the first) or "last"',
    }),
    roles: z.array(role).optional(),
    contains: z.string().optional(),
    not_contains: z.string().optional(),
    tools: z.array(z.string()).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  }),
  requests: z.strictObject({ requests: count }),
};

type ExpectationBranches = typeof expectationBranches;
export type Expectation = { [K in keyof ExpectationBranches]: z.infer<ExpectationBranches[K]> }[keyof ExpectationBranches];
export const EXPECTATION_KINDS = Object.keys(expectationBranches) as Array<keyof ExpectationBranches>;

/** What success criteria may say: a live model's path is its own; only outcomes and budgets count. */
export const SUCCESS_KINDS = ['final_answer', 'file', 'tools_used', 'tools_not_used', 'iterations', 'tool_calls', 'termination'] as const;

function branchOf(kinds: readonly string[]) {
  return z.unknown().transform((value, ctx): Expectation => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: `expected a mapping with one of: ${kinds.join(', ')}` });
      return z.NEVER;
    }
    const kind = kinds.find((k) => k in value) as keyof ExpectationBranches | undefined;
    if (!kind) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown ${kinds === EXPECTATION_KINDS ? 'expectation' : 'success criterion'} (keys: ${Object.keys(value).join(', ') || 'none'}); expected one of: ${kinds.join(', ')}`,
      });
      return z.NEVER;
    }
    const parsed = expectationBranches[kind].safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
      return z.NEVER;
    }
    return parsed.data as Expectation;
  });
}

export const expectation = branchOf(EXPECTATION_KINDS);
export const successCriterion = branchOf(SUCCESS_KINDS);

export type CountSpec = z.infer<typeof count>;

// triggers used to live here; their schema is scenario-trigger-schema.ts
export { injectTrigger, killTrigger, slotReleaseTrigger, type TriggerDocument } from './scenario-trigger-schema';
