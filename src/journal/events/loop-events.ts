import { z } from 'zod';
import { callRecord, defineEvent } from './define-event';
import { NUDGE_REASONS } from './loop-vocabulary';

export const LOOP_EVENTS = {
  nudge: defineEvent(
    'The model answered without acting (promised, asked, too short, wrote instead of calling), or a loop was detected under a warn-first profile (loopDetected): it is nudged — or, exhausted, the loop ends.',
    {
      reason: z.enum(NUDGE_REASONS),
      evidence: z.object({ phrase: z.string().optional(), length: z.number(), iteration: z.number(), loop: z.string().optional() }),
      count: z.number().optional(),
      exhausted: z.boolean().optional(),
      nudgesSoFar: z.number().optional(),
      max: z.number().optional(),
    },
  ),
  mid_chain_nudge: defineEvent('After hallucinated tool output the model is told to call tools properly — or, exhausted, the loop ends.', {
    markers: z.array(z.string()).optional(),
    count: z.number().optional(),
    exhausted: z.boolean().optional(),
    nudgesSoFar: z.number().optional(),
    max: z.number().optional(),
  }),
  hallucination_stripped: defineEvent(
    'The model wrote its own tool output; it was kept out of the context (the event keeps the evidence).',
    {
      markers: z.array(z.string()),
      strippedText: z.string(),
      content: z.string(),
      withToolCalls: z.boolean().optional(),
    },
  ),
  repeat_break: defineEvent('The same call (normalized) repeated threshold times in a row: the loop breaks.', {
    kind: z.literal('repeat_break'),
    key: z.string(),
    count: z.number(),
    calls: z.array(callRecord),
    /** caught before the repeating call ran (corvid checks a reply's calls before running them); it never ran */
    beforeRun: z.boolean().optional(),
  }),
  same_tool_break: defineEvent('The same tool, with any arguments, was called threshold times in a row: the loop breaks.', {
    kind: z.literal('same_tool_break'),
    toolName: z.string(),
    count: z.number(),
    calls: z.array(callRecord),
  }),
  cycle_break: defineEvent('A sequence of calls repeated back to back: the loop breaks.', {
    kind: z.literal('cycle_break'),
    period: z.number(),
    repetitions: z.number(),
    cycle: z.array(z.string()),
    calls: z.array(callRecord),
  }),
  error_repeat_break: defineEvent('The same call failed with the same error threshold times: the loop breaks.', {
    kind: z.literal('error_repeat_break'),
    key: z.string(),
    error: z.string(),
    count: z.number(),
    calls: z.array(callRecord),
  }),
  content_loop_break: defineEvent(
    "The model's text repeated a 50-char chunk threshold times close together (gemini-cli's chanting check): the loop breaks.",
    {
      kind: z.literal('content_loop_break'),
      chunk: z.string(),
      occurrences: z.number(),
      averageDistance: z.number(),
    },
  ),
  max_iterations: defineEvent('The iteration limit was reached: the loop stops.', {
    kind: z.literal('max_iterations'),
    iteration: z.number(),
    maxIterations: z.number(),
    /** what the cap ruled out at the last turn: a re-ask after a nudge, a loop warning or an approved doom loop */
    instead: z.enum(['nudge', 'mid_chain_nudge', 'loop_warning', 'doom_loop_ask']).optional(),
  }),
  grace_turn: defineEvent(
    "gemini-cli's recovery turn at the iteration cap: one tools-off call under its own time limit (timeoutMs, 60 s) to give a final answer; recovered: it answered in time and the session completes, otherwise it stays at max_iterations (why: timed_out, called_tools, empty, failed).",
    {
      reason: z.literal('max_iterations'),
      timeoutMs: z.number(),
      recovered: z.boolean(),
      why: z.enum(['timed_out', 'called_tools', 'empty', 'failed']).optional(),
      waitedMs: z.number(),
      chars: z.number(),
    },
  ),
  summary_epilogue: defineEvent('After an abnormal break, a tools-off call produced a summary of the work.', {
    reason: z.string(),
    chars: z.number(),
    toolsEnabled: z.boolean(),
  }),
};
