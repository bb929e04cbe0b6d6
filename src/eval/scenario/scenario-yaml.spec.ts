import { formatProblem } from './scenario-errors';
import { parseScenario } from './scenario-parser';
import { MAX_YAML_DEPTH } from './scenario-yaml';

const valid = 'id: t\nprompt: go\nscript:\n  - content: done\nexpect:\n  - termination: completed\n';

function problemsOf(text: string): string[] {
  const r = parseScenario(text, 'scenarios/t.yaml');
  if (r.ok) throw new Error('expected the scenario to be rejected');
  return r.problems.map(formatProblem);
}

describe('scenario YAML: hazards of the text, each with its field', () => {
  it('refuses nesting past the limit where it starts, flow or block, before the yaml library recurses into it', () => {
    const deep = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;
    expect(problemsOf(`${valid}title: ${deep(100_000)}\n`)).toEqual([
      `scenarios/t.yaml:7:${MAX_YAML_DEPTH + 7}: title[0]${'[0]'.repeat(MAX_YAML_DEPTH - 2)}: nests deeper than ${MAX_YAML_DEPTH} levels`,
    ]);
    const block = Array.from({ length: 5000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n');
    expect(problemsOf(`${valid}${block} 1\n`)).toEqual([
      `scenarios/t.yaml:${MAX_YAML_DEPTH + 7}:${MAX_YAML_DEPTH + 1}: ${Array(MAX_YAML_DEPTH).fill('a').join('.')}: nests deeper than ${MAX_YAML_DEPTH} levels`,
    ]);
    const args = `${'{a: '.repeat(2000)}1${'}'.repeat(2000)}`;
    expect(problemsOf(valid.replace('  - content: done', `  - tool_calls: [{ name: read_file, arguments: ${args} }]`))[0]).toMatch(
      /^scenarios\/t\.yaml:4:\d+: script\[0\]\.tool_calls\[0\]\.arguments(\.a)+: nests deeper than 64 levels$/,
    );
  });

  it('names a key repeated in one mapping, however many keys it holds', () => {
    expect(problemsOf(`${valid}title: a\ntitle: b\n`)).toEqual(['scenarios/t.yaml:8:1: title: key "title" appears twice in this mapping']);
    const many = Array.from({ length: 50_000 }, (_, i) => `  k${i}: ${i}`).join('\n');
    expect(problemsOf(`${valid}x:\n${many}\n  k7: again\n`)).toEqual([
      'scenarios/t.yaml:50008:3: x.k7: key "k7" appears twice in this mapping',
    ]);
    // 1 and "1" are one key once the value is built
    expect(problemsOf(`${valid}workspace:\n  files:\n    1: a\n    "1": b\n`)).toEqual([
      'scenarios/t.yaml:10:5: workspace.files.1: key "1" appears twice in this mapping',
    ]);
  });

  it('names at most 20 of thousands of unknown fields, and counts the rest', () => {
    const problems = problemsOf(`${valid}${Array.from({ length: 30_000 }, (_, i) => `k${i}: ${i}`).join('\n')}\n`);
    expect(problems).toHaveLength(21);
    expect(problems).toEqual(
      expect.arrayContaining([
        'scenarios/t.yaml:7:1: k0: unknown field',
        'scenarios/t.yaml:1:1: (document): and 29980 more unknown fields',
      ]),
    );
  });

  it('locates syntax errors and alias bombs by field', () => {
    expect(problemsOf(valid.replace('prompt: go', 'prompt: go: now'))).toEqual([
      expect.stringMatching(/^scenarios\/t\.yaml:2:9: prompt: YAML syntax error: /),
    ]);
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(', ')}]`),
    ];
    expect(problemsOf(`${valid}title: ${'x'}\n${bomb.join('\n')}\n`)).toEqual([
      expect.stringMatching(/^scenarios\/t\.yaml:9:8: b\[0\]: YAML aliases expand too far/),
    ]);
    expect(problemsOf(`${valid}---\n${valid}`)).toEqual([
      expect.stringMatching(/^scenarios\/t\.yaml:7:1: \(document\): a scenario file holds one YAML document/),
    ]);
  });

  it('says what a value matching no form of a union should be, at its field', () => {
    expect(problemsOf(`${valid}profile: 3\n`)).toEqual(['scenarios/t.yaml:7:10: profile: expected string or array, received number']);
    expect(problemsOf(`${valid}profile: [corvid, 3]\n`)).toEqual(['scenarios/t.yaml:7:19: profile[1]: expected string, received number']);
  });
});
