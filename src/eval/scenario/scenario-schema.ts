// Scenario format v0 (YAML). Keys are snake_case like Ollama's wire format; unknown keys are errors
// so a typo never silently weakens a scenario. Parts: bounds (numbers, paths), the stand-in's turns
// and catalog, and the expectations and triggers in the journal's vocabulary.
import { z } from 'zod';
import { durationMs, workspaceFiles } from './scenario-bounds';
import { expectation, successCriterion, type Expectation } from './scenario-expectation-schema';
import { injectTrigger, killTrigger, slotReleaseTrigger } from './scenario-trigger-schema';
import { catalogModel, fault, script, turn } from './scenario-turn-schema';
import { mcpServersSchema } from './scenario-mcp-schema';
import { standinSettingsSchema } from './scenario-standin-schema';
import { solutionSchema } from './scenario-solution-schema';
import { COUNCIL_ROLES } from '../../process/policies/council-policy';
import { TOOL_PERMISSIONS } from '../../approval/approval-policy';
import { LOOP_PROFILE_NAMES, type LoopProfileName } from '../../process/policies/loop-settings';
import { unknownNameMessage } from '../../common/closest-name';
import { TOKEN_ESTIMATORS } from '../../context/token-estimation';
import { RETRY_SCHEDULE_NAMES } from '../../provider/ollama/retry-schedules';

export { EXPECTATION_KINDS, type CountSpec, type Expectation } from './scenario-expectation-schema';
export type { TriggerDocument } from './scenario-trigger-schema';

export const SCENARIO_ID = /^[a-z0-9][a-z0-9._/-]*$/;

const threshold = z.number().int().min(2).max(1_000);
/** a detector threshold, or 0 to turn the detector off */
const detector = z.union([z.literal(0), threshold]);
const share = z.number().min(0).max(1);
const tokens = z.number().int().min(0).max(16_777_216);

/** A scenario's `config:` — and the keys `loupe eval --set key=v1,v2` can vary: the profile and any single setting over it. */
export const configSchema = z.strictObject({
  /** the loop profile (default loupe); the other keys override single settings of it */
  profile: z.enum(LOOP_PROFILE_NAMES).optional(),
  max_tool_iterations: z.number().int().min(1).max(100_000).optional(),
  num_ctx: z.number().int().min(256).max(16_777_216).optional(),
  num_predict: z.number().int().min(1).max(16_777_216).optional(),
  tool_timeout_ms: durationMs(1).optional(),
  command_timeout_ms: durationMs(1).optional(),
  /** the command tool's isolation: auto (bubblewrap, else refuse), bubblewrap, or none (an explicit opt-out) */
  command_sandbox: z.enum(['auto', 'bubblewrap', 'none']).optional(),
  repeat_threshold: detector.optional(),
  repeat_scope: z.enum(['session', 'reply']).optional(),
  repeat_check: z.enum(['after_run', 'before_run']).optional(),
  call_key: z.enum(['normalized', 'exact']).optional(),
  same_tool_threshold: detector.optional(),
  cycle_repetitions: detector.optional(),
  cycle_max_period: z.number().int().min(2).max(50).optional(),
  error_repeat_threshold: detector.optional(),
  content_loop_threshold: detector.optional(),
  doom_loop: z.enum(['break', 'ask', 'nudge']).optional(),
  loop_nudges: z.number().int().min(0).max(100).optional(),
  nudge_policy: z.enum(['corvid', 'off']).optional(),
  max_nudges: z.number().int().min(0).max(100).optional(),
  hallucination_guard: z.enum(['replies_without_calls', 'all_replies', 'off']).optional(),
  max_mid_chain_nudges: z.number().int().min(0).max(100).optional(),
  epilogue: z.enum(['summary', 'none']).optional(),
  cap_recovery: z.enum(['none', 'grace_turn']).optional(),
  grace_turn_ms: z.number().int().min(0).max(86_400_000).optional(),
  queue_injection: z.enum(['all', 'one']).optional(),
  token_estimator: z.enum(TOKEN_ESTIMATORS).optional(),
  trim_max_messages: z.number().int().min(0).max(100_000).optional(),
  trim_keep_recent: z.number().int().min(0).max(100_000).optional(),
  trim_budget_ratio: share.optional(),
  trim_budget_tokens: tokens.optional(),
  trim_summaries: z.boolean().optional(),
  tool_result_cap: z.enum(['context_share', 'fixed_chars', 'off']).optional(),
  tool_result_max_chars: z.number().int().min(1).max(100_000_000).optional(),
  tool_result_chars_per_token: z.number().int().min(1).max(16).optional(),
  prune: z.enum(['scaled', 'fixed', 'off']).optional(),
  prune_protect_tokens: tokens.optional(),
  prune_minimum_tokens: tokens.optional(),
  prune_keep_turns: z.number().int().min(0).max(1_000).optional(),
  prune_protected_tools: z.array(z.string().min(1)).optional(),
  prune_after: z.enum(['each_request', 'tool_step']).optional(),
  prune_completed_only: z.boolean().optional(),
  overflow_trigger: z.enum(['reserved_output', 'context_ratio', 'off']).optional(),
  overflow_ratio: share.optional(),
  output_reserve: z.enum(['window_quarter', 'max_output']).optional(),
  overflow_action: z.enum(['compact', 'trim', 'clear_history']).optional(),
  compaction_keep: z.enum(['turns', 'turns_clamped', 'share']).optional(),
  compaction_keep_turns: z.number().int().min(0).max(1_000).optional(),
  compaction_keep_share: share.optional(),
  compaction_validation: z.enum(['reject_empty_or_inflated', 'none']).optional(),
  compaction_baseline: z.enum(['replaced_estimate', 'last_prompt']).optional(),
  preflight: z.enum(['record', 'refuse', 'clear_history', 'off']).optional(),
  provider_overflow: z.enum(['compact', 'clear_history', 'fail']).optional(),
  provider_overflow_retries: z.number().int().min(0).max(10).optional(),
  retry_schedule: z.enum(RETRY_SCHEDULE_NAMES).optional(),
  approval_timeout_ms: durationMs(1).optional(),
  on_rejection: z.enum(['continue', 'stop']).optional(),
  tool_execution: z.enum(['parallel', 'sequential']).optional(),
  call_ids: z.enum(['provider', 'timestamp_index']).optional(),
  // sampling, sent with every model request; unset: not sent (the model's and Ollama's defaults apply)
  temperature: z.number().min(0).max(5).optional(),
  top_p: share.optional(),
  top_k: z.number().int().min(0).max(100_000).optional(),
  min_p: share.optional(),
  repeat_penalty: z.number().min(0).max(10).optional(),
  /** text-mode tool calls: strict (only what each format's reference parser accepts) or lenient (repair and record); unset: LOUPE_TOOL_CALL_EXTRACTION */
  tool_call_extraction: z.enum(['strict', 'lenient']).optional(),
});

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
