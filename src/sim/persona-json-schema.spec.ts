import * as fs from 'node:fs';
import * as path from 'node:path';
import { personaJsonSchema, SIM_DEVIATIONS } from './persona-schema';
import { SIM_SITUATIONS } from './sim-types';

const PUBLISHED = path.join(__dirname, '..', '..', 'schemas', 'persona.schema.json');

describe('the published persona JSON Schema', () => {
  const schema = personaJsonSchema() as {
    required: string[];
    additionalProperties: boolean;
    properties: Record<string, { properties?: Record<string, { properties?: Record<string, { maximum?: number; minimum?: number }> }> }>;
  };

  it("is generated from the loader's schema and current in schemas/ (npm run docs)", () => {
    const published = JSON.parse(fs.readFileSync(PUBLISHED, 'utf8'));
    expect(published).toEqual(JSON.parse(JSON.stringify(schema)));
  });

  it('marks the required fields, refuses unknown keys and bounds every probability to [0, 1]', () => {
    expect(schema.required.sort()).toEqual(
      ['behaviour', 'context_length', 'description', 'family', 'prefill_tokens_per_second', 'tokens_per_second'].sort(),
    );
    expect(schema.additionalProperties).toBe(false);
    const situations = schema.properties.behaviour.properties!;
    expect(Object.keys(situations)).toEqual([...SIM_SITUATIONS]);
    for (const s of SIM_SITUATIONS) {
      const weights = situations[s].properties!;
      expect(Object.keys(weights)).toEqual([...SIM_DEVIATIONS]);
      for (const d of SIM_DEVIATIONS) expect(weights[d]).toMatchObject({ minimum: 0, maximum: 1 });
    }
  });
});
