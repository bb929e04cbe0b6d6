import { z } from 'zod';
import { PROVIDER_ERROR_KINDS } from '../../provider/provider-errors';
import { defineEvent } from './define-event';
import { TERMINATION_REASONS } from './loop-vocabulary';

/** error.kind: a provider failure's kind, or one of the loop's own failures. */
export const ERROR_KINDS = [...PROVIDER_ERROR_KINDS, 'context_window_will_overflow', 'slot_timeout', 'internal'] as const;

export const SESSION_EVENTS = {
  session_started: defineEvent('A session began: its model, host, whether tools are on, and every resolved loop setting.', {
    model: z.string(),
    pid: z.number(),
    host: z.string(),
    toolsEnabled: z.boolean(),
    councilRole: z.string().nullable(),
    settings: z.record(z.string(), z.unknown()),
  }),
  tools_available: defineEvent('The tools offered to the model for this session (built-in and external).', { tools: z.array(z.string()) }),
  models_listed: defineEvent('What the host serves, recorded before anything waits on the model (or why it could not be listed).', {
    count: z.number().optional(),
    models: z.array(z.string()).optional(),
    hasModel: z.boolean().optional(),
    error: z.string().optional(),
  }),
  user_message_queued: defineEvent(
    "A message was sent into the running session (API, WebSocket, a scenario's inject) and queued: position is its place in the queue; it is injected before the next iteration.",
    { position: z.number(), chars: z.number(), id: z.string().optional() },
  ),
  user_message_dequeued: defineEvent(
    "A queued message was taken off the queue for the next step, one per step (dexto's message:dequeued, context-management-plan.md §4); left: how many still wait.",
    { id: z.string(), left: z.number() },
  ),
  user_message_injected: defineEvent('A message sent into the running session was added to the context before an iteration.', {
    chars: z.number(),
    waitedMs: z.number(),
    id: z.string().optional(),
  }),
  abort: defineEvent('The session was killed (by a person, a scenario trigger or shutdown).', {
    reason: z.string(),
    phase: z.enum(['iteration', 'outside_iteration']),
  }),
  session_expired: defineEvent(
    'The session was idle (nothing recorded, no message or approval) for idleMs, past the limit (LOUPE_SESSION_IDLE_TIMEOUT_MS): the janitor ended it as `expired` and released its tool processes, MCP servers and pending approvals; its history stays (mcp-agent\'s JanitorService, "Expired Session").',
    {
      idleMs: z.number(),
      idleTimeoutMs: z.number(),
      phase: z.enum(['iteration', 'outside_iteration']),
    },
  ),
  error: defineEvent('A failure: a provider error that ended the session, a failed epilogue, an internal error or a slot timeout.', {
    kind: z.enum(ERROR_KINDS).optional(),
    message: z.string(),
    phase: z.string().optional(),
    retryable: z.boolean().optional(),
    status: z.number().optional(),
    retryAfterMs: z.number().optional(),
    code: z.string().optional(),
    waitedMs: z.number().optional(),
  }),
  session_finished: defineEvent('The session ended: its termination reason and counters. Always the last event of a session.', {
    reason: z.enum(TERMINATION_REASONS),
    exitCode: z.number(),
    iterations: z.number(),
    inferences: z.number(),
    toolCalls: z.number(),
    nudges: z.number(),
    midChainNudges: z.number(),
    finalAnswerChars: z.number(),
    error: z.string().optional(),
    approvalWaitMs: z.number(),
    workingMs: z.number(),
  }),
};
