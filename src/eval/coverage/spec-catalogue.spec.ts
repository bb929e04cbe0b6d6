import { catalogueOf, parseSpecItems, specKey } from './spec-catalogue';

// a spec with each kind of item, in the shapes the five specs use
const withExamples = [
  '# Direct Process',
  '',
  '## Invariants',
  '',
  '1. **Slot acquired before loop**: released in a `finally`',
  '2. **Max 25 tool iterations**: at most 25 turns',
  '',
  '## Behavioral Examples',
  '',
  '### Scenario: Normal tool loop completion',
  '- **Given** a prompt',
  '### Scenario: Council deliberation (no tools)',
  '',
  '## Error Cases',
  '',
  '| Condition | Behavior |',
  '|-----------|----------|',
  '| Provider error mid-loop | Error event emitted |',
  '| `Unknown tool` name | Error text added |',
  '',
  '## Configuration',
  '1. not an item',
].join('\n');

const withoutExamples = [
  '# Deep Dive',
  '## Overview',
  'The processor:',
  '1. **Streams responses** - Updates UI in real-time',
  '2. **Executes tools** - Runs tool calls',
  '## 4. Error Matrix',
  '| Failure Scenario | Handling |',
  '|---|---|',
  '| Missing API Key | throws |',
  '## 5. Multiple Tool Call Management',
  '### Workflow',
  '1. **Tool Call Reception** (`generateResponse`):',
  '   - stored in queue',
  '2. **Sequential Approval** (`executeTool`):',
  '### Error Handling',
  '- **No Matching Call**: Emits error',
  '## Handling Stream Events',
  '### Text Delta',
  '### Tool Call',
  '## Proposed Architecture',
  '### Overview',
  '```',
  '│    // 1. MID-LOOP MESSAGE INJECTION (Claude Code feature)   │',
  '│    // 2. REACTIVE COMPRESSION (after overflow detected)      │',
  '```',
  '#### 1. Stream Processor (Real-time Persistence)',
  '```typescript',
  '// 3. NOT A STEP (outside the overview)',
  '```',
].join('\n');

describe('spec catalogue', () => {
  it('keys a spec by its file name', () => {
    expect(specKey('direct-process.spec.md')).toBe('direct-process');
    expect(specKey('mcp-agent-technical-spec.md')).toBe('mcp-agent-technical-spec');
  });

  it('reads invariants by number, examples and error cases by name, with the example anchors `spec:` uses', () => {
    expect(parseSpecItems('direct-process.spec.md', withExamples)).toEqual([
      { id: 'direct-process#invariant-1', spec: 'direct-process.spec.md', kind: 'invariant', title: 'Slot acquired before loop' },
      { id: 'direct-process#invariant-2', spec: 'direct-process.spec.md', kind: 'invariant', title: 'Max 25 tool iterations' },
      {
        id: 'direct-process#example-normal-tool-loop-completion',
        spec: 'direct-process.spec.md',
        kind: 'example',
        title: 'Normal tool loop completion',
        anchor: 'scenario-normal-tool-loop-completion',
      },
      {
        id: 'direct-process#example-council-deliberation-no-tools',
        spec: 'direct-process.spec.md',
        kind: 'example',
        title: 'Council deliberation (no tools)',
        anchor: 'scenario-council-deliberation-no-tools',
      },
      {
        id: 'direct-process#error-provider-error-mid-loop',
        spec: 'direct-process.spec.md',
        kind: 'error',
        title: 'Provider error mid-loop',
      },
      { id: 'direct-process#error-unknown-tool-name', spec: 'direct-process.spec.md', kind: 'error', title: 'Unknown tool name' },
    ]);
  });

  it('without Behavioral Examples: numbered requirements, workflow steps, error matrix and bullets, event handlers, diagram steps, components', () => {
    const items = parseSpecItems('deep.md', withoutExamples);
    expect(items.map((i) => [i.id, i.title])).toEqual([
      ['deep#requirement-1', 'Streams responses'],
      ['deep#requirement-2', 'Executes tools'],
      ['deep#error-missing-api-key', 'Missing API Key'],
      ['deep#step-1', 'Tool Call Reception'],
      ['deep#step-2', 'Sequential Approval'],
      ['deep#error-no-matching-call', 'No Matching Call'],
      ['deep#step-text-delta', 'Text Delta'],
      ['deep#step-tool-call', 'Tool Call'],
      // the loop diagram's step 1 has the workflow's id: the first one stays
      ['deep#component-1', 'Stream Processor (Real-time Persistence)'],
    ]);
  });

  it("reads a loop diagram's numbered steps under Overview, and no numbered comment elsewhere", () => {
    const plan = withoutExamples.replace(/### Workflow[\s\S]*?### Error Handling/, '### Error Handling');
    expect(
      parseSpecItems('plan.md', plan)
        .filter((i) => i.kind === 'step' && /^plan#step-\d/.test(i.id))
        .map((i) => [i.id, i.title]),
    ).toEqual([
      ['plan#step-1', 'Mid-loop message injection'],
      ['plan#step-2', 'Reactive compression'],
    ]);
  });

  it('keeps the first of two items with one id, and orders specs by file name', () => {
    const items = catalogueOf([
      { file: 'b.md', markdown: '## Invariants\n1. **One**\n1. **Again**\n' },
      { file: 'a.md', markdown: '## Invariants\n1. **First**\n' },
    ]);
    expect(items.map((i) => [i.id, i.title])).toEqual([
      ['a#invariant-1', 'First'],
      ['b#invariant-1', 'One'],
    ]);
  });
});
