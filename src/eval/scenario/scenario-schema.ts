// Scenario format v0 (YAML). Keys are snake_case like Ollama's wire format; unknown keys are errors
// so a typo never silently weakens a scenario. Parts: bounds (numbers, paths), the stand-in's turns
// and catalog, and the expectations and triggers in the journal's vocabulary.
import { z } from 'zod';
import { durationMs, workspaceFiles } from './scenario-bounds';
import { expectation, successCriterion } from './scenario-expectation-schema';
import { injectTrigger, killTrigger, slotReleaseTrigger } from './scenario-trigger-schema';
import { catalogModel, fault, script, turn } from './scenario-turn-schema';
import { mcpServersSchema } from './scenario-mcp-schema';
import { COUNCIL_ROLES } from '../../process/policies/council-policy';
import { TOOL_PERMISSIONS } from '../../approval/approval-policy';

export { EXPECTATION_KINDS, type CountSpec, type Expectation } from './scenario-expectation-schema';
export type { TriggerDocument } from './scenario-trigger-schema';

export const SCENARIO_ID = /^[a-z0-9][a-z0-9._/-]*$/;

const threshold = z.number().int().min(2).max(1_000);

/** A scenario's `config:` — and the keys `loupe eval --set key=v1,v2` can vary. */
export const configSchema = z.strictObject({
    max_tool_iterations: z.number().int().min(1).max(100_000).optional(),
    num_ctx: z.number().int().min(256).max(16_777_216).optional(),
    tool_timeout_ms: durationMs(1).optional(),
    command_timeout_ms: durationMs(1).optional(),
    /** the command tool's isolation: auto (bubblewrap, else refuse), bubblewrap, or none (an explicit opt-out) */
    command_sandbox: z.enum(['auto', 'bubblewrap', 'none']).optional(),
    repeat_threshold: threshold.optional(),
    same_tool_threshold: threshold.optional(),
    cycle_repetitions: threshold.optional(),
    error_repeat_threshold: threshold.optional(),
    max_nudges: z.number().int().min(0).max(100).optional(),
    max_mid_chain_nudges: z.number().int().min(0).max(100).optional(),
    approval_timeout_ms: durationMs(1).optional(),
    on_rejection: z.enum(['continue', 'stop']).optional(),
    doom_loop: z.enum(['break', 'ask']).optional(),
    tool_execution: z.enum(['parallel', 'sequential']).optional(),
  });

export const scenarioSchema = z.strictObject({
  id: z.string().regex(SCENARIO_ID, 'lowercase letters, digits, ".", "_", "-" and "/" only'),
  title: z.string().min(1),
  spec: z.string().min(1),
  version: z.number().int().min(0).max(1).default(0),
  model: z.string().min(1).optional(),
  prompt: z.string().min(1),
  system: z.string().optional(),
  council_role: z.enum(COUNCIL_ROLES).optional(),
  config: configSchema.default({}),
  workspace: z.strictObject({
    files: workspaceFiles.default({}),
  }).default({ files: {} }),
  tools: z.array(z.string().min(1)).optional(),
  permissions: z.strictObject({
    default: z.enum(TOOL_PERMISSIONS).default('allow'),
    tools: z.record(z.string(), z.enum(TOOL_PERMISSIONS)).optional(),
  }).optional(),
  /** scripted answers to `ask`: by tool name or by the n-th request of the session, after a delay */
  approvals: z.array(z.strictObject({
    tool: z.string().min(1).optional(),
    request: z.number().int().min(1).max(100_000).optional(),
    decision: z.enum(['approve', 'reject']),
    reason: z.string().optional(),
    after_ms: durationMs().optional(),
  }).refine((a) => (a.tool === undefined) !== (a.request === undefined), { message: 'give tool or request (one of them)' })).optional(),
  mcp_servers: mcpServersSchema.optional(),
  ollama: z.strictObject({
    max_parallel: z.number().int().min(1).max(1024).optional(),
    // -1: every layer that fits on the GPU (Ollama's default); 0: CPU only
    num_gpu: z.number().int().min(-1).max(100_000).optional(),
    first_byte_timeout_ms: durationMs(1).optional(),
    idle_timeout_ms: durationMs(1).optional(),
    request_timeout_ms: durationMs(1).optional(),
    /** multiplies the retry backoff (1 = the spec's 1 s, 2 s, 4 s): fault scenarios run in milliseconds */
    retry_delay_scale: z.number().min(0).max(100).optional(),
    /** a second stand-in playing the local Ollama (cloud models are routed there) */
    local_standin: z.strictObject({ catalog: z.array(catalogModel).optional() }).optional(),
  }).optional(),
  setup: z.strictObject({
    /** occupy inference slots before the session starts, as other sessions would */
    // released after a delay, or when the session records an event (load-proof timing: "release
    // 200 ms after the session reports it is queued" holds however busy the machine is)
    hold_slots: z.array(z.strictObject({ model: z.string().min(1), release_after_ms: durationMs().optional(), release_on: slotReleaseTrigger.optional() })
      .refine((h) => (h.release_after_ms === undefined) !== (h.release_on === undefined), { message: 'give release_after_ms or release_on (one of them)' }))
      .max(1024).optional(),
  }).optional(),
  kill: killTrigger.optional(),
  inject: z.array(injectTrigger).optional(),
  catalog: z.array(catalogModel).optional(),
  /** false: the stand-in lists only `catalog`, not its default models */
  default_catalog: z.boolean().default(true),
  script,
  /** checks of a scripted run (exact, the stand-in replays the script) */
  expect: z.array(expectation).min(1, 'a scenario needs at least one expectation'),
  /** checks of a run against a real model (OLLAMA_HOST): outcomes and budgets, not the path */
  success: z.array(successCriterion).optional(),
});

export type ScenarioDocument = z.infer<typeof scenarioSchema>;
export type ScenarioTurnDocument = z.infer<typeof turn>;
export type ScenarioFaultDocument = z.infer<typeof fault>;
export type ScenarioCatalogDocument = z.infer<typeof catalogModel>;
