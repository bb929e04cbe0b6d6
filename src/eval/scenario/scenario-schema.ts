// Scenario format v0 (YAML). Keys are snake_case like Ollama's wire format; unknown keys are errors
// so a typo never silently weakens a scenario.
import { z } from 'zod';
import { PAYLOAD_OPERATORS } from '../expectations/payload-match';

const count = z.union([z.number().int().min(0), z.strictObject({ min: z.number().int().min(0).optional(), max: z.number().int().min(0).optional() })]);

const toolCall = z.strictObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

const fault = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('http'), status: z.number().int().min(400).max(599), error: z.string().optional(), retry_after_seconds: z.number().min(0).optional(), times: z.number().int().min(1).optional() }),
  z.strictObject({ kind: z.literal('delay_first_byte'), ms: z.number().int().min(0), times: z.number().int().min(1).optional() }),
  z.strictObject({ kind: z.literal('stall'), after_chunks: z.number().int().min(0), ms: z.number().int().min(0), times: z.number().int().min(1).optional() }),
  z.strictObject({ kind: z.literal('disconnect'), after_chunks: z.number().int().min(0), times: z.number().int().min(1).optional() }),
  z.strictObject({ kind: z.literal('malformed_line'), after_chunks: z.number().int().min(0), times: z.number().int().min(1).optional() }),
  z.strictObject({ kind: z.literal('error_line'), after_chunks: z.number().int().min(0), error: z.string(), times: z.number().int().min(1).optional() }),
]);

const turn = z.strictObject({
  content: z.string().optional(),
  thinking: z.string().optional(),
  tool_calls: z.array(toolCall).optional(),
  done_reason: z.enum(['stop', 'length']).optional(),
  prompt_eval_count: z.number().int().min(0).optional(),
  eval_count: z.number().int().min(0).optional(),
  fault: fault.optional(),
}).refine((t) => t.content !== undefined || t.tool_calls !== undefined || t.thinking !== undefined || t.fault !== undefined, {
  message: 'a turn needs content, tool_calls, thinking or a fault',
});

const catalogModel = z.strictObject({
  name: z.string().min(1),
  family: z.string().min(1),
  parameter_size: z.string().min(1),
  quantization: z.string().optional(),
  capabilities: z.array(z.enum(['completion', 'tools', 'thinking', 'vision', 'embedding', 'insert'])),
  context_length: z.number().int().positive().optional(),
  vram_bytes: z.number().int().min(0).optional(),
  cloud: z.boolean().optional(),
  parallel: z.number().int().min(1).optional(),
  load_ms: z.number().int().min(0).optional(),
  tokens_per_second: z.number().positive().optional(),
});

function unknownOperators(value: unknown, path: PropertyKey[] = []): Array<{ path: PropertyKey[]; op: string }> {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownOperators(v, [...path, i]));
  return Object.entries(value).flatMap(([k, v]) => [
    ...(k.startsWith('$') && !PAYLOAD_OPERATORS.includes(k) ? [{ path: [...path, k], op: k }] : []),
    ...unknownOperators(v, [...path, k]),
  ]);
}

const payloadMatch = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  for (const bad of unknownOperators(value)) {
    ctx.addIssue({ code: 'custom', path: bad.path, message: `unknown operator ${bad.op} (known: ${PAYLOAD_OPERATORS.join(', ')})` });
  }
});

// Each expectation is recognised by its leading key; validating only that branch gives errors that
// name the real problem instead of a union mismatch.
const expectationBranches = {
  event: z.strictObject({ event: z.string().min(1), with: payloadMatch.optional(), count: count.optional() }),
  no_event: z.strictObject({ no_event: z.string().min(1), with: payloadMatch.optional() }),
  termination: z.strictObject({ termination: z.string().min(1) }),
  final_answer_contains: z.strictObject({ final_answer_contains: z.string() }),
  final_answer_not_contains: z.strictObject({ final_answer_not_contains: z.string() }),
  file: z.strictObject({ file: z.string().min(1), equals: z.string().optional(), contains: z.string().optional(), exists: z.boolean().optional() }),
  iterations: z.strictObject({ iterations: count }),
  tool_calls: z.strictObject({ tool_calls: count }),
  message: z.strictObject({
    message: z.strictObject({
      role: z.enum(['system', 'user', 'assistant', 'tool']).optional(),
      kind: z.string().optional(),
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

const expectation = z.unknown().transform((value, ctx): Expectation => {
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
const trigger = {
  on_event: z.string().min(1),
  with: payloadMatch.optional(),
  /** nth matching event (1 = first) */
  occurrence: z.number().int().min(1).optional(),
  after_ms: z.number().int().min(0).optional(),
};

export const SCENARIO_ID = /^[a-z0-9][a-z0-9._/-]*$/;

export const scenarioSchema = z.strictObject({
  id: z.string().regex(SCENARIO_ID, 'lowercase letters, digits, ".", "_", "-" and "/" only'),
  title: z.string().min(1),
  spec: z.string().min(1),
  version: z.number().int().min(0).default(0),
  model: z.string().min(1).optional(),
  prompt: z.string().min(1),
  system: z.string().optional(),
  council_role: z.enum(['member', 'discusser', 'reviewer']).optional(),
  config: z.strictObject({
    max_tool_iterations: z.number().int().min(1).optional(),
    num_ctx: z.number().int().min(256).optional(),
    tool_timeout_ms: z.number().int().min(1).optional(),
    command_timeout_ms: z.number().int().min(1).optional(),
    repeat_threshold: z.number().int().min(2).optional(),
    same_tool_threshold: z.number().int().min(2).optional(),
    cycle_repetitions: z.number().int().min(2).optional(),
    error_repeat_threshold: z.number().int().min(2).optional(),
    max_nudges: z.number().int().min(0).optional(),
    max_mid_chain_nudges: z.number().int().min(0).optional(),
  }).default({}),
  workspace: z.strictObject({ files: z.record(z.string(), z.string()).default({}) }).default({ files: {} }),
  tools: z.array(z.string().min(1)).optional(),
  permissions: z.strictObject({
    default: z.enum(['allow', 'deny']).default('allow'),
    tools: z.record(z.string(), z.enum(['allow', 'deny'])).optional(),
  }).optional(),
  mcp_servers: z.array(z.strictObject({
    name: z.string().min(1),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
  })).optional(),
  ollama: z.strictObject({
    max_parallel: z.number().int().min(1).optional(),
    num_gpu: z.number().int().optional(),
    first_byte_timeout_ms: z.number().int().min(1).optional(),
    idle_timeout_ms: z.number().int().min(1).optional(),
    request_timeout_ms: z.number().int().min(1).optional(),
    /** a second stand-in playing the local Ollama (cloud models are routed there) */
    local_standin: z.strictObject({ catalog: z.array(catalogModel).optional() }).optional(),
  }).optional(),
  setup: z.strictObject({
    /** occupy inference slots before the session starts, as other sessions would */
    hold_slots: z.array(z.strictObject({ model: z.string().min(1), release_after_ms: z.number().int().min(0) })).optional(),
  }).optional(),
  kill: z.strictObject(trigger).optional(),
  inject: z.array(z.strictObject({ ...trigger, text: z.string().min(1) })).optional(),
  catalog: z.array(catalogModel).optional(),
  /** false: the stand-in lists only `catalog`, not its default models */
  default_catalog: z.boolean().default(true),
  // a list of turns for any model, or a mapping model name → turns; validated per branch for clear errors
  script: z.unknown().transform((value, ctx) => {
    const branch = Array.isArray(value) ? z.array(turn) : z.record(z.string(), z.array(turn));
    const parsed = branch.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
      return z.NEVER;
    }
    return parsed.data;
  }),
  expect: z.array(expectation).min(1, 'a scenario needs at least one expectation'),
});

export type ScenarioDocument = z.infer<typeof scenarioSchema>;
export type ScenarioTurnDocument = z.infer<typeof turn>;
export type ScenarioFaultDocument = z.infer<typeof fault>;
export type ScenarioCatalogDocument = z.infer<typeof catalogModel>;
export type CountSpec = z.infer<typeof count>;
export type TriggerDocument = { on_event: string; with?: Record<string, unknown>; occurrence?: number; after_ms?: number };
