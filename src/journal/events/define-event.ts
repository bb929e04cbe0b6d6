// How an event type is declared: what it means (for the README catalogue) and its payload fields
// as a zod object (the TypeScript type for recorders, and the field names scenarios may match on).
import { z } from 'zod';

export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  description: string;
  payload: S;
}

export function defineEvent<S extends z.ZodRawShape>(description: string, shape: S): EventDefinition<z.ZodObject<S>> {
  return { description, payload: z.object(shape) };
}

/** Fields the loop adds to every event the provider reports during one model call. */
export const inferencePurpose = { purpose: z.enum(['step', 'epilogue', 'compaction', 'grace_turn']).optional() };

export const callRecord = z.object({
  iteration: z.number(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  outcome: z.enum(['ok', 'error']).optional(),
  resultDigest: z.string().optional(),
});
