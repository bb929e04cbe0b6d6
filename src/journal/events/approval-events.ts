import { z } from 'zod';
import { defineEvent } from './define-event';

/** The approval queue (mcp-agent-technical-spec.md §5): asked one at a time, decided by a policy, a script, a person or the clock. */
export const APPROVAL_EVENTS = {
  approval_requested: defineEvent("A tool call waits for a decision; its place in this reply's queue of calls.", {
    callId: z.string(),
    name: z.string(),
    args: z.record(z.string(), z.unknown()),
    queuePosition: z.number(),
    totalInQueue: z.number(),
  }),
  approval_decided: defineEvent(
    'A tool call was allowed or denied: by whom (policy, script, person, timeout, session end), by which rule, after how long; waiting time is not working time.',
    {
      /** the call decided on, as in approval_requested (rows recorded before it was renamed say `id`; read back as callId) */
      callId: z.string(),
      name: z.string(),
      decision: z.enum(['allow', 'deny']),
      rule: z.enum(['tool', 'default', 'doom_loop']),
      by: z.enum(['policy', 'script', 'person', 'timeout', 'session_end']),
      reason: z.string().optional(),
      waitedMs: z.number(),
    },
  ),
  approval_unknown: defineEvent('A decision came for a call no session is waiting on (recorded for the host; nothing else happens).', {
    callId: z.string(),
    approved: z.boolean(),
    by: z.enum(['person', 'script']),
  }),
};
