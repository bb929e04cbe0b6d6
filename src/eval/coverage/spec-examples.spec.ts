import { exampleCoverage, headingAnchor, parseBehavioralExamples } from './spec-examples';

const spec = `# Direct Process

## Invariants

### Scenario: not an example (outside the section)

## Behavioral Examples

### Scenario: Normal tool loop completion

- **Given** …

### Scenario: Council deliberation (no tools)

## Error Cases
`;

describe('behavioral examples', () => {
  it.each([
    ['Scenario: Normal tool loop completion', 'scenario-normal-tool-loop-completion'],
    ['Scenario: Council deliberation (no tools)', 'scenario-council-deliberation-no-tools'],
    ['Scenario: Text-based tool calling for Qwen3', 'scenario-text-based-tool-calling-for-qwen3'],
    ['4. Message Queue Service (Mid-Loop Injection)', '4-message-queue-service-mid-loop-injection'],
  ])('anchors %s as %s', (heading, anchor) => {
    expect(headingAnchor(heading)).toBe(anchor);
  });

  it('reads only the Behavioral Examples section', () => {
    expect(parseBehavioralExamples('direct-process.spec.md', spec)).toEqual([
      { spec: 'direct-process.spec.md', title: 'Normal tool loop completion', anchor: 'scenario-normal-tool-loop-completion' },
      { spec: 'direct-process.spec.md', title: 'Council deliberation (no tools)', anchor: 'scenario-council-deliberation-no-tools' },
    ]);
  });

  it('matches scenarios to examples by spec and anchor', () => {
    const rows = exampleCoverage(parseBehavioralExamples('direct-process.spec.md', spec), [
      { id: 'a', spec: 'direct-process.spec.md#scenario-normal-tool-loop-completion' },
      { id: 'b', spec: 'direct-process.spec.md#invariants' },
    ]);
    expect(rows.map((r) => r.scenarios)).toEqual([['a'], []]);
  });
});
