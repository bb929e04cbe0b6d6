import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXPECTATION_KINDS } from './scenario-expectation-schema';
import { scenarioJsonSchema } from './scenario-json-schema';
import { TERMINATION_REASONS } from '../../journal/events/loop-vocabulary';

describe('the published scenario JSON Schema', () => {
  const schema = scenarioJsonSchema() as {
    required: string[];
    anyOf: unknown[];
    properties: Record<string, { items?: { anyOf?: unknown[] } }>;
  };

  it("is generated from the loader's schema and current in schemas/ (npm run docs)", () => {
    const published = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'schemas', 'scenario.schema.json'), 'utf8'));
    expect(published).toEqual(JSON.parse(JSON.stringify(schema)));
  });

  it('offers every expectation kind to editors and marks the required fields', () => {
    expect(schema.properties.expect.items?.anyOf).toHaveLength(EXPECTATION_KINDS.length);
    expect(schema.required).toEqual(expect.arrayContaining(['id', 'prompt']));
    // expect or success, one of them: a scenario written for live models has success alone
    expect(schema.anyOf).toEqual([{ required: ['expect'] }, { required: ['success'] }]);
    // a scenario for real models needs no script; title defaults to the id
    for (const optional of ['script', 'title', 'spec', 'expect', 'success']) expect(schema.required).not.toContain(optional);
  });

  it("offers editors the termination reasons of the loop's vocabulary, wherever an expectation may stand", () => {
    // every `termination:` property in the document, whatever list it sits in (expect, success, expect_by_profile)
    const found: unknown[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (node === null || typeof node !== 'object') return;
      const props = (node as { properties?: Record<string, unknown> }).properties;
      if (props?.termination) found.push(props.termination);
      Object.values(node).forEach(walk);
    };
    walk(schema);
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const t of found) expect(t).toEqual({ type: 'string', enum: [...TERMINATION_REASONS] });
  });
});
