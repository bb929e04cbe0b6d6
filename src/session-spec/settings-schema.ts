// The loop settings a session's spec may set, as a scenario's `config:` and an API session's
// `options` write them (snake_case), and the keys `loupe eval --set key=v1,v2` can vary.
import { z } from 'zod';
import { TOKEN_ESTIMATORS } from '../context/token-estimation';
import { LOOP_PROFILE_NAMES } from '../process/policies/loop-settings';
import { RETRY_SCHEDULE_NAMES } from '../provider/ollama/retry-schedules';
import { durationMs } from './spec-bounds';

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

export type SettingsDocument = z.infer<typeof configSchema>;
