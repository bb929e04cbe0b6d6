import { z } from 'zod';
import { defineEvent, inferencePurpose } from './define-event';

export const INFERENCE_EVENTS = {
  iteration_started: defineEvent('An iteration (one model call and what follows it) began.', {
    purpose: z.enum(['step', 'epilogue', 'compaction']),
    contextMessages: z.number(),
  }),
  iteration_finished: defineEvent('An iteration ended, with its outcome (tool_calls, final_answer, nudge, a break…).', {
    outcome: z.string(),
    status: z.enum(['finished', 'failed', 'aborted']),
  }),
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
      messageCount: z.number(),
      roles: z.array(z.string()),
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
  tool_call_dropped: defineEvent('A call the model wrote names no declared tool, not even closely: it is not run.', {
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    strategy: z.string().nullable(),
    reason: z.enum(['unknown_tool']),
    ...inferencePurpose,
  }),
  tools_disabled: defineEvent('Tools were turned off for the rest of the session (the model does not support them).', {
    reason: z.string(),
    message: z.string(),
  }),
};
