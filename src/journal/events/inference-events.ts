import { z } from 'zod';
import { ITERATION_OUTCOMES } from '../../process/policies/iteration-outcome';
import { defineEvent, inferencePurpose } from './define-event';

/** num_ctx, num_batch and num_gpu as sent (unset: not sent): a change reloads the model. */
const runnerOptions = z.object({ numCtx: z.number().optional(), numBatch: z.number().optional(), numGpu: z.number().optional() });

export const INFERENCE_EVENTS = {
  iteration_started: defineEvent('An iteration (one model call and what follows it) began.', {
    purpose: z.enum(['step', 'epilogue', 'compaction', 'grace_turn']),
    contextMessages: z.number(),
  }),
  iteration_finished: defineEvent(
    'An iteration ended, with its outcome (tool_calls, final_answer, nudge, a break…; length_empty: the model hit num_predict with no content and no tool calls, a model behaviour the loop handled as it handles an empty reply).',
    {
      outcome: z.enum(ITERATION_OUTCOMES),
      status: z.enum(['finished', 'failed', 'aborted']),
    },
  ),
  inference_request: defineEvent(
    'What was sent to the model: mode (native or text tools), tool count, roles, num_ctx, and the request options as sent ("default" for a sampling option not sent).',
    {
      model: z.string(),
      host: z.string(),
      redirected: z.boolean(),
      mode: z.enum(['native', 'text', 'none']),
      family: z.string(),
      modeReason: z.string(),
      toolsSent: z.boolean(),
      toolCount: z.number(),
      think: z.union([z.boolean(), z.string()]).nullable(),
      numCtx: z.number().nullable(),
      /** Ollama's `options` as sent (num_ctx, seed, temperature…), each sampling option not sent as "default" */
      options: z.record(z.string(), z.union([z.number(), z.string()])),
      /** keep_alive as sent (seconds or a Go duration); null: not sent (cloud models) */
      keepAlive: z.union([z.number(), z.string()]).nullable().optional(),
      /** the prompt estimated from the body as sent (text-mode rewriting and tool schemas included) */
      estimatedPromptTokens: z.number().optional(),
      /** the context it goes against: the runner's loaded one (/api/ps) or the requested num_ctx */
      contextLength: z.number().nullable().optional(),
      contextSource: z.enum(['loaded', 'requested', 'unknown']).optional(),
      messageCount: z.number(),
      roles: z.array(z.string()),
      ...inferencePurpose,
    },
  ),
  inference_response: defineEvent(
    "What the server reported for one model call: its usage figures as sent, the prompt's total read per the server's version (prompt_eval_count excluded cached tokens in 0.30.x; null when it cannot be told), the cached part, the load time, and the server's version.",
    {
      model: z.string(),
      finishReason: z.string(),
      inputTokens: z.number(),
      outputTokens: z.number(),
      /** prompt_eval_count as sent; null when absent */
      promptEvalCount: z.number().nullable(),
      /** prompt_eval_cached_count; null when absent */
      promptCachedCount: z.number().nullable(),
      /** the whole prompt as the server counted it; null when it cannot be told */
      promptTokens: z.number().nullable(),
      countSemantics: z.enum(['full_prompt', 'uncached_only']),
      serverVersion: z.string().nullable(),
      loadMs: z.number().nullable(),
      estimatedPromptTokens: z.number(),
      contextLength: z.number().nullable(),
      contextSource: z.enum(['loaded', 'requested', 'unknown']),
      ...inferencePurpose,
    },
  ),
  model_reloaded: defineEvent(
    "A reply's load_duration shows the model was loaded again although Loupe believed it warm: cause options_changed (Loupe sent other num_ctx/num_batch/num_gpu), keep_alive_expired (idle longer than the keep_alive sent), evicted (another model was loaded on the host since) or unknown; measured: during a session's model call.",
    {
      model: z.string(),
      host: z.string(),
      loadMs: z.number(),
      cause: z.enum(['options_changed', 'keep_alive_expired', 'evicted', 'unknown']),
      /** the runner options of the provider's previous request or load for the model */
      previous: runnerOptions.nullable(),
      /** the runner options of the request that paid the load */
      next: runnerOptions,
      /** ms the model was idle before the request; null when requests were in flight */
      idleMs: z.number().nullable(),
      /** the keep_alive sent before, ms; null = forever */
      keepAliveMs: z.number().nullable(),
      measured: z.boolean(),
      ...inferencePurpose,
    },
  ),
  inference_retry: defineEvent(
    "A model call failed and is retried after delayMs — or, with giveUp, is not — under the session's retry schedule.",
    {
      attempt: z.number(),
      schedule: z.string().optional(),
      delayMs: z.number().optional(),
      giveUp: z.boolean().optional(),
      reason: z.string().optional(),
      kind: z.string(),
      status: z.number().nullable(),
      retryAfterMs: z.number().nullable().optional(),
      message: z.string(),
      ...inferencePurpose,
    },
  ),
  stream_malformed_line: defineEvent('A line of the reply stream was not JSON and was skipped.', {
    skipped: z.boolean(),
    line: z.string(),
    ...inferencePurpose,
  }),
  tool_calls_extracted: defineEvent('Tool calls were read out of the reply text (text-mode models), with the format used.', {
    strategy: z.string().nullable(),
    strategies: z.array(z.string()),
    count: z.number(),
    names: z.array(z.string()),
    ...inferencePurpose,
  }),
  tool_name_repaired: defineEvent('A tool name the model misspelled was mapped onto a declared tool (case, prefix or near miss).', {
    callIndex: z.number(),
    from: z.string(),
    to: z.string(),
    how: z.enum(['case', 'prefix', 'fuzzy']),
    ...inferencePurpose,
  }),
  tool_args_normalized: defineEvent('Malformed argument text (broken JSON, wrong quoting) was repaired into an object.', {
    callIndex: z.number(),
    from: z.string(),
    to: z.string(),
    ...inferencePurpose,
  }),
  tool_args_coerced: defineEvent('An argument value was converted to the type its schema declares ("3" → 3).', {
    callIndex: z.number(),
    key: z.string(),
    from: z.string(),
    to: z.string(),
    ...inferencePurpose,
  }),
  tool_call_repaired: defineEvent(
    'A text-mode call was read only by repairing its markup or argument text (misspelt tag, look-alike special token, pseudo-JSON), as lenient extraction does; strict extraction drops such a call.',
    {
      callIndex: z.number(),
      detail: z.string(),
      ...inferencePurpose,
    },
  ),
  tool_call_dropped: defineEvent(
    "A text-mode call was not run, and why. unknown_tool: it names no declared tool, not even closely (under strict extraction: not exactly); it is never run under a guessed name, and goes to the loop under the name as written, which answers `Unknown tool: <name>` as for a native call. strict_rejected: strict extraction refused what the format's reference parser rejects (`detail` says what).",
    {
      name: z.string(),
      arguments: z.record(z.string(), z.unknown()),
      strategy: z.string().nullable(),
      reason: z.enum(['unknown_tool', 'strict_rejected']),
      detail: z.string().optional(),
      ...inferencePurpose,
    },
  ),
  tools_disabled: defineEvent('Tools were turned off for the rest of the session (the model does not support them).', {
    reason: z.string(),
    message: z.string(),
  }),
};
