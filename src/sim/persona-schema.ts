// The persona file format (YAML, snake_case), as the loader validates it and as the published JSON
// Schema (schemas/persona.schema.json) describes it to editors.
import { z } from 'zod';
import { SIM_BEHAVIOURS, SIM_SITUATIONS, type SimBehaviour, type SimDeviation } from './sim-types';

// Keyed by the type, so the compiler keeps this in step with SimDeviation's definition.
const NOT_WEIGHTED: Record<Exclude<SimBehaviour, SimDeviation>, true> = { next_step: true, lose_plan: true };
const isDeviation = (b: SimBehaviour): b is SimDeviation => !(b in NOT_WEIGHTED);

/** The behaviours a persona gives a probability (next_step takes the rest; lose_plan has its own key). */
export const SIM_DEVIATIONS: readonly SimDeviation[] = SIM_BEHAVIOURS.filter(isDeviation);

const probability = (what: string) => z.number().min(0).max(1).describe(what);

const DEVIATION_TEXT: Record<SimDeviation, string> = {
  repeat_last: 'repeat its last call, same arguments',
  vary_args: 'call the same tool again with other arguments',
  unknown_tool: 'call a tool that does not exist',
  fake_output: 'write fake tool output in text instead of calling',
  promise: 'promise to act without acting',
  early_answer: 'answer before the work is done',
  malformed_call: "write the next call malformed, in its family's text format",
};

export const weightsSchema = z
  .strictObject(Object.fromEntries(SIM_DEVIATIONS.map((d) => [d, probability(`probability to ${DEVIATION_TEXT[d]}`).optional()])))
  .describe('probabilities of the deviations in one situation (missing = 0, sum ≤ 1); the next step of the plan takes the rest');

const SITUATION_TEXT: Record<(typeof SIM_SITUATIONS)[number], string> = {
  base: 'an ordinary turn (required)',
  after_nudge: 'the turn after a nudge (default: base)',
  after_break: 'the turn after a loop break or loop warning (default: base)',
  after_denial: 'the turn after a denied call (default: base)',
  after_error: 'the turn after a failed call (default: base)',
};

export const behaviourSchema = z.strictObject(
  Object.fromEntries(
    SIM_SITUATIONS.map((s) => [
      s,
      s === 'base' ? weightsSchema.describe(SITUATION_TEXT[s]) : weightsSchema.optional().describe(SITUATION_TEXT[s]),
    ]),
  ) as Record<(typeof SIM_SITUATIONS)[number], typeof weightsSchema>,
);

export const personaSchema = z.strictObject({
  name: z.string().min(1).optional().describe("the persona's name (default: the file's name, which it must match)"),
  description: z.string().min(1).describe('what the persona does, in a sentence'),
  family: z.enum(['qwen3', 'hermes', 'llama3', 'mistral']).describe('the model family it reports, and whose text format its calls use'),
  tool_calls: z
    .enum(['native', 'text'])
    .default('native')
    .describe('native: message.tool_calls; text: calls written in the family format in content (default native)'),
  tokens_per_second: z.number().positive().describe('decode speed, stand-in tokens per second'),
  prefill_tokens_per_second: z.number().positive().describe('prompt processing speed, tokens per second'),
  context_length: z.number().int().min(256).describe('context length in tokens (caps num_ctx)'),
  lose_plan: probability('probability of starting over on a turn where evidence of done steps was trimmed out of its context').default(0),
  behaviour: behaviourSchema.describe('deviation probabilities per situation'),
});

export type PersonaDocument = z.input<typeof personaSchema>;

export const PERSONA_SCHEMA_ID = 'https://loupe.dev/schemas/persona.schema.json';

/** The published JSON Schema of persona files (a test keeps schemas/persona.schema.json equal to it). */
export function personaJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(personaSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    $id: PERSONA_SCHEMA_ID,
    title: 'Loupe persona',
    description:
      'A simulated model served as `sim:<name>` (README: Simulated models). The probabilities of one situation sum to at most 1.',
  };
}
