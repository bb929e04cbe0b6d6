// The stand-in's side of a session's spec (a scenario's or an API session's `script:`): scripted
// model turns, injected faults, the model catalog.
import { z } from 'zod';
import { byteCount, chunkIndex, durationMs, faultTimes, tokenCount } from './spec-bounds';
import { MAX_TIMER_MS } from '../config/loupe-config';
import { FAULT_PRESET_NAMES } from '../standin/standin-fault';

const toolCall = z.strictObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

export const fault = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('http'),
    status: z.number().int().min(400).max(599),
    error: z.string().optional(),
    retry_after_seconds: z
      .number()
      .min(0)
      .max(MAX_TIMER_MS / 1000)
      .optional(),
    times: faultTimes.optional(),
  }),
  z.strictObject({ kind: z.literal('delay_first_byte'), ms: durationMs(), times: faultTimes.optional() }),
  z.strictObject({ kind: z.literal('stall'), after_chunks: chunkIndex, ms: durationMs(), times: faultTimes.optional() }),
  z.strictObject({ kind: z.literal('disconnect'), after_chunks: chunkIndex, times: faultTimes.optional() }),
  z.strictObject({ kind: z.literal('malformed_line'), after_chunks: chunkIndex, times: faultTimes.optional() }),
  z.strictObject({ kind: z.literal('error_line'), after_chunks: chunkIndex, error: z.string(), times: faultTimes.optional() }),
  /** a named failure of today's (or an older) Ollama with its exact status and text: out_of_memory, gpu_load_failed, system_memory, context_length, cloud_quota, cloud_disabled */
  z.strictObject({ kind: z.literal('preset'), preset: z.enum(FAULT_PRESET_NAMES), times: faultTimes.optional() }),
]);

export const turn = z
  .strictObject({
    content: z.string().optional(),
    thinking: z.string().optional(),
    tool_calls: z.array(toolCall).optional(),
    done_reason: z.enum(['stop', 'length']).optional(),
    prompt_eval_count: tokenCount.optional(),
    eval_count: tokenCount.optional(),
    fault: fault.optional(),
  })
  .refine((t) => t.content !== undefined || t.tool_calls !== undefined || t.thinking !== undefined || t.fault !== undefined, {
    message: 'a turn needs content, tool_calls, thinking or a fault',
  });

export const catalogModel = z.strictObject({
  name: z.string().min(1),
  family: z.string().min(1),
  parameter_size: z.string().min(1),
  quantization: z.string().optional(),
  capabilities: z.array(z.enum(['completion', 'tools', 'thinking', 'vision', 'embedding', 'insert'])),
  context_length: z.number().int().positive().max(16_777_216).optional(),
  vram_bytes: byteCount.optional(),
  cloud: z.boolean().optional(),
  parallel: z.number().int().min(1).max(1024).optional(),
  load_ms: durationMs().optional(),
  tokens_per_second: z.number().positive().max(10_000_000).optional(),
});

// a list of turns for any model, or a mapping model name → turns; validated per branch for clear errors
export const script = z.unknown().transform((value, ctx) => {
  const branch = Array.isArray(value) ? z.array(turn) : z.record(z.string(), z.array(turn));
  const parsed = branch.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  }
  return parsed.data;
});

export type TurnDocument = z.infer<typeof turn>;
export type ScriptDocument = z.infer<typeof script>;
