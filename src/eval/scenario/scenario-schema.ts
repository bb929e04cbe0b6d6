// Scenario format v0 (YAML). Keys are snake_case like Ollama's wire format; unknown keys are errors
// so a typo never silently weakens a scenario. Parts: bounds (numbers, paths), the stand-in's turns
// and catalog, and the expectations and triggers in the journal's vocabulary.
import { z } from 'zod';
import { durationMs, workspaceFiles } from '../../session-spec/spec-bounds';
import { expectation, successCriterion, type Expectation } from './scenario-expectation-schema';
import { injectTrigger, killTrigger, slotReleaseTrigger } from './scenario-trigger-schema';
import { configSchema } from '../../session-spec/settings-schema';
import { catalogModel, fault, script, turn } from '../../session-spec/turn-schema';
import { mcpServersSchema } from './scenario-mcp-schema';
import { standinSettingsSchema } from './scenario-standin-schema';
import { solutionSchema } from './scenario-solution-schema';
import { COUNCIL_ROLES } from '../../process/policies/council-policy';
import { TOOL_PERMISSIONS } from '../../approval/approval-policy';
import { LOOP_PROFILE_NAMES, type LoopProfileName } from '../../process/policies/loop-settings';
import { unknownNameMessage } from '../../common/closest-name';

export { EXPECTATION_KINDS, type CountSpec, type Expectation } from './scenario-expectation-schema';
export type { TriggerDocument } from './scenario-trigger-schema';

export { configSchema };

export const SCENARIO_ID = /^[a-z0-9][a-z0-9._/-]*$/;

const profileName = z
  .string()
  .superRefine((name, ctx) => {
    if (!(LOOP_PROFILE_NAMES as readonly string[]).includes(name))
      ctx.addIssue({ code: 'custom', message: unknownNameMessage('loop profile', name, LOOP_PROFILE_NAMES) });
  })
  .transform((name) => name as LoopProfileName);

export const scenarioSchema = z.strictObject({
  id: z.string().regex(SCENARIO_ID, 'lowercase letters, digits, ".", "_", "-" and "/" only'),
  /** default: the id */
  title: z.string().min(1).optional(),
  /** the spec and section the scenario checks (`direct-process.spec.md#…`); a user's own scenario may have none */
  spec: z.string().min(1).optional(),
  /** the spec items the scenario checks, by catalogue id (`direct-process#invariant-2`; specs/spec-catalogue.json) */
  covers: z.array(z.string().min(1)).optional(),
  version: z.number().int().min(0).max(1).default(0),
  /** the loop profile(s) whose loop `expect` describes (default loupe); several: the scenario runs under each */
  profile: z.union([profileName, z.array(profileName).min(1)]).optional(),
  model: z.string().min(1).optional(),
  prompt: z.string().min(1),
  system: z.string().optional(),
  council_role: z.enum(COUNCIL_ROLES).optional(),
  config: configSchema
    .superRefine((c, ctx) => {
      if (c.profile !== undefined)
        ctx.addIssue({ code: 'custom', path: ['profile'], message: 'name the profile with the top-level `profile:` key' });
    })
    .default({}),
  workspace: z
    .strictObject({
      files: workspaceFiles.default({}),
    })
    .default({ files: {} }),
  tools: z.array(z.string().min(1)).optional(),
  permissions: z
    .strictObject({
      default: z.enum(TOOL_PERMISSIONS).default('allow'),
      tools: z.record(z.string(), z.enum(TOOL_PERMISSIONS)).optional(),
    })
    .optional(),
  /** scripted answers to `ask`: by tool name or by the n-th request of the session, after a delay */
  approvals: z
    .array(
      z
        .strictObject({
          tool: z.string().min(1).optional(),
          request: z.number().int().min(1).max(100_000).optional(),
          decision: z.enum(['approve', 'reject']),
          reason: z.string().optional(),
          after_ms: durationMs().optional(),
        })
        .refine((a) => (a.tool === undefined) !== (a.request === undefined), { message: 'give tool or request (one of them)' }),
    )
    .optional(),
  mcp_servers: mcpServersSchema.optional(),
  ollama: z
    .strictObject({
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
    })
    .optional(),
  setup: z
    .strictObject({
      /** occupy inference slots before the session starts, as other sessions would */
      // released after a delay, or when the session records an event (load-proof timing: "release
      // 200 ms after the session reports it is queued" holds however busy the machine is)
      hold_slots: z
        .array(
          z
            .strictObject({
              model: z.string().min(1),
              release_after_ms: durationMs().optional(),
              release_on: slotReleaseTrigger.optional(),
            })
            .refine((h) => (h.release_after_ms === undefined) !== (h.release_on === undefined), {
              message: 'give release_after_ms or release_on (one of them)',
            }),
        )
        .max(1024)
        .optional(),
    })
    .optional(),
  kill: killTrigger.optional(),
  inject: z.array(injectTrigger).optional(),
  catalog: z.array(catalogModel).optional(),
  /** the stand-in server's settings (Ollama's environment, the simulated GPU and clock, cloud sign-in, models warm at start) */
  standin: standinSettingsSchema.optional(),
  /** false: the stand-in lists only `catalog`, not its default models */
  default_catalog: z.boolean().default(true),
  /** the stand-in's replies; a scenario for real models only needs none (on the stand-in its trials then fail: nothing to reply) */
  script: script.optional(),
  /** the task's intended solution (tool calls, final answer): what simulated models follow; without `script:`, scripted runs replay it */
  solution: solutionSchema.optional(),
  /** checks of a scripted run (exact, the stand-in replays the script); without them a scripted run is judged by `success` */
  expect: z.array(expectation).min(1, 'a scenario needs at least one expectation').optional(),
  /** checks of a run against a real model (OLLAMA_HOST): outcomes and budgets, not the path */
  success: z.array(successCriterion).optional(),
  /** exact checks of a scripted run under another profile, where its loop legitimately differs (judged instead of `success` there) */
  expect_by_profile: z
    .record(z.string(), z.array(expectation).min(1, 'a profile here needs at least one expectation'))
    .superRefine((lists, ctx) => {
      for (const name of Object.keys(lists))
        if (!(LOOP_PROFILE_NAMES as readonly string[]).includes(name))
          ctx.addIssue({ code: 'custom', path: [name], message: unknownNameMessage('loop profile', name, LOOP_PROFILE_NAMES) });
    })
    .transform((lists) => lists as Partial<Record<LoopProfileName, Expectation[]>>)
    .optional(),
});

export type ScenarioDocument = z.infer<typeof scenarioSchema>;
export type ScenarioTurnDocument = z.infer<typeof turn>;
export type ScenarioFaultDocument = z.infer<typeof fault>;
export type ScenarioCatalogDocument = z.infer<typeof catalogModel>;
