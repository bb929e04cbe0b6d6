import { z } from 'zod';
import { TOOL_OUTCOME_STATUSES } from '../../tools/tool-types';
import { defineEvent } from './define-event';

/** A call's status as recorded: the tool's outcome, or denied (an approval refused it). */
const status = z.enum([...TOOL_OUTCOME_STATUSES, 'denied']);

export const TOOL_EVENTS = {
  tool_call: defineEvent('The model called a tool.', { id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) }),
  tool_result: defineEvent('A tool call succeeded.', {
    id: z.string(),
    name: z.string(),
    status,
    chars: z.number(),
    durationMs: z.number(),
  }),
  tool_error: defineEvent('A tool call failed, timed out, was denied or named an unknown tool; the error text goes to the model.', {
    id: z.string(),
    name: z.string(),
    status,
    chars: z.number(),
    durationMs: z.number(),
    error: z.string(),
  }),
  tool_result_capped: defineEvent('A tool result was cut to the cap (30% of the window, less under budget pressure).', {
    id: z.string(),
    name: z.string(),
    originalChars: z.number(),
    keptChars: z.number(),
    omittedChars: z.number(),
    maxChars: z.number(),
  }),
};
