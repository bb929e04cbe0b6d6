import { parseScenario } from '../scenario/scenario-parser';
import { catalogueIds, readCatalogue, readNotApplicable } from './catalogue-file';
import type { SpecItem } from './spec-catalogue';
import { closestItemId, coverMarkers, itemCoverage, tallyBySpec, unknownCovers } from './spec-coverage';

const item = (id: string, extra: Partial<SpecItem> = {}): SpecItem => ({
  id,
  spec: `${id.split('#')[0]}.spec.md`,
  kind: 'invariant',
  title: id,
  ...extra,
});

describe('spec coverage', () => {
  const items = [
    item('direct-process#invariant-2'),
    item('direct-process#example-abort', { kind: 'example', anchor: 'scenario-abort' }),
    item('direct-process#error-unknown-tool-name', { kind: 'error' }),
    item('mcp-agent#error-redis-down', { kind: 'error', spec: 'mcp-agent.md' }),
  ];

  it('maps items to scenarios (by covers:, or an example by spec:) and to tests; not-applicable items are told apart', () => {
    const rows = itemCoverage(
      items,
      [
        { id: 'loop/max', spec: 'direct-process.spec.md#invariants', covers: ['direct-process#invariant-2'] },
        { id: 'dp/abort', spec: 'direct-process.spec.md#scenario-abort' },
      ],
      [{ file: 'test/x.spec.ts', covers: ['direct-process#invariant-2'] }],
      { 'mcp-agent#error-redis-down': 'no Redis' },
    );
    expect(rows.map((r) => [r.item.id, r.scenarios, r.tests, r.notApplicable])).toEqual([
      ['direct-process#invariant-2', ['loop/max'], ['test/x.spec.ts'], undefined],
      ['direct-process#example-abort', ['dp/abort'], [], undefined],
      ['direct-process#error-unknown-tool-name', [], [], undefined],
      ['mcp-agent#error-redis-down', [], [], 'no Redis'],
    ]);
    expect(tallyBySpec(rows)).toEqual([
      { spec: 'direct-process.spec.md', covered: 2, notApplicable: 0, total: 3 },
      { spec: 'mcp-agent.md', covered: 0, notApplicable: 1, total: 1 },
    ]);
  });

  it('reads `covers:` markers from line comments, several per line, with their lines', () => {
    const text = [
      '// A test.',
      '// covers: a#invariant-1, b#step-2',
      'const x = 1;',
      '  # covers: c#error-x',
      '// it covers: nothing',
    ].join('\n');
    expect(coverMarkers(text)).toEqual([
      { id: 'a#invariant-1', line: 2 },
      { id: 'b#step-2', line: 2 },
      { id: 'c#error-x', line: 4 },
    ]);
  });

  it("suggests the closest id, preferring the same spec's items", () => {
    const known = ['direct-process#invariant-1', 'direct-process#invariant-12', 'ollama-provider#invariant-13'];
    expect(closestItemId('direct-process#invarient-12', known)).toBe('direct-process#invariant-12');
    expect(closestItemId('direct-proces#invariant-1', known)).toBe('direct-process#invariant-1');
    expect(unknownCovers({ covers: ['direct-process#invariant-1', 'direct-process#invarient-12'] }, () => known)).toEqual([
      {
        path: ['covers', 1],
        message: expect.stringContaining('"direct-process#invarient-12"; the closest is "direct-process#invariant-12"'),
      },
    ]);
    // no covers: the catalogue is not even read
    expect(
      unknownCovers({}, () => {
        throw new Error('read');
      }),
    ).toEqual([]);
  });
});

describe('the checked-in catalogue', () => {
  it('has unique ids, and every not-applicable id is in it', () => {
    const ids = catalogueIds();
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      readCatalogue()
        .filter((i) => i.kind === 'example')
        .every((i) => i.anchor),
    ).toBe(true);
    expect(Object.keys(readNotApplicable()).filter((id) => !ids.includes(id))).toEqual([]);
  });
});

describe('covers: in a scenario', () => {
  const scenario = (covers: string) =>
    [
      'id: t',
      'title: T',
      'spec: direct-process.spec.md#invariants',
      covers,
      'prompt: x',
      'script:',
      '  - content: done',
      'expect:',
      '  - termination: completed',
      '',
    ].join('\n');

  it('accepts catalogue ids and keeps them on the scenario', () => {
    const r = parseScenario(scenario('covers: [direct-process#invariant-2, direct-process#error-unknown-tool-name]'), 't.yaml');
    expect(r.ok && r.scenario.covers).toEqual(['direct-process#invariant-2', 'direct-process#error-unknown-tool-name']);
  });

  it('refuses an unknown id with file, line and the closest id', () => {
    const r = parseScenario(scenario('covers:\n  - direct-process#invariant-2\n  - direct-process#invariant-22'), 't.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      expect.objectContaining({
        file: 't.yaml',
        line: 6,
        field: 'covers[1]',
        message: expect.stringMatching(/unknown spec item "direct-process#invariant-22"; the closest is "direct-process#invariant-2"/),
      }),
    ]);
  });
});
