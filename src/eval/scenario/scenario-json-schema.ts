// The published JSON Schema of scenario files, generated from the schema the loader itself uses (so
// editors validate and complete what Loupe accepts). The loader parses expectations and scripts
// branch by branch for clearer errors; for editors the same branches are offered as unions.
import { z } from 'zod';
import { expectationBranches, SUCCESS_KINDS } from './scenario-expectation-schema';
import { scenarioSchema } from './scenario-schema';
import { turn } from '../../session-spec/turn-schema';
import { LOOP_PROFILE_NAMES } from '../../process/policies/loop-settings';

export const SCENARIO_SCHEMA_ID = 'https://loupe.dev/schemas/scenario.schema.json';

export function scenarioJsonSchema(): Record<string, unknown> {
  const branches = Object.values(expectationBranches) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]];
  const success = SUCCESS_KINDS.map((k) => expectationBranches[k]) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]];
  const forEditors = scenarioSchema.extend({
    script: z
      .union([z.array(turn), z.record(z.string(), z.array(turn))])
      .optional()
      .describe('model turns in order, or a mapping model name → turns (leave out for a scenario run only against real models)'),
    expect: z
      .array(z.union(branches))
      .min(1)
      .optional()
      .describe('checks of a scripted run (the stand-in replays the script); without them, scripted runs are judged by `success`'),
    success: z
      .array(z.union(success))
      .optional()
      .describe('checks of a run against a real model (OLLAMA_HOST); a scenario needs `expect` or `success`'),
    expect_by_profile: z
      .partialRecord(z.enum(LOOP_PROFILE_NAMES), z.array(z.union(branches)).min(1))
      .optional()
      .describe(
        'exact checks of a scripted run under a profile the scenario was not written for, where that loop legitimately differs (judged there instead of `success`)',
      ),
  });
  const schema = z.toJSONSchema(forEditors, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    // one of the two lists (the loader says so too): nothing to judge otherwise
    anyOf: [{ required: ['expect'] }, { required: ['success'] }],
    $id: SCENARIO_SCHEMA_ID,
    title: 'Loupe scenario',
    description: 'A behavioural scenario run by `loupe eval` (README: Scenarios).',
  };
}
