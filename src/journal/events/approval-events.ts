import { z } from 'zod';
import { defineEvent } from './define-event';

/** The approval queue (mcp-agent-technical-spec.md §5): asked one at a time, decided by a policy, a script, a person or the clock. */
export const APPROVAL_EVENTS = {
  approval_requested: defineEvent('A tool call waits for a decision; its place in this reply\'s queue of calls.', {
    callId: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()), queuePosition: z.number(), totalInQueue: z.number(),
  }),
  approval_decided: defineEvent('A tool call was allowed or denied: by whom (policy, script, person, timeout), by which rule, after how long.', {
    id: z.string(), name: z.string(), decision: z.enum(['allow', 'deny']), rule: z.enum(['tool', 'default', 'ask']), by: z.enum(['policy']),
  }),
};
