import { parseScenario } from './scenario-parser';

const scenario = (value: string) => `id: t
title: t
spec: test
prompt: go
config:
  tool_call_extraction: ${value}
script:
  - content: done
expect:
  - termination: completed
`;

describe('config: tool_call_extraction', () => {
  it('sets the loop setting the inference step sends with each request', () => {
    const r = parseScenario(scenario('strict'), 'scenarios/t.yaml');
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.scenario.loopSettings.toolCallExtraction).toBe('strict');
  });

  it('rejects an unknown policy naming the file, line and field', () => {
    const r = parseScenario(scenario('loose'), 'scenarios/t.yaml');
    expect(r.ok).toBe(false);
    expect(JSON.stringify(!r.ok && r.problems)).toMatch(/config\.tool_call_extraction/);
    expect(JSON.stringify(!r.ok && r.problems)).toMatch(/scenarios\/t\.yaml/);
  });
});
