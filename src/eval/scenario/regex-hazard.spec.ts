import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { formatProblem } from './scenario-errors';
import { parseScenario } from './scenario-parser';
import { catastrophicRegex, regexHazards } from './regex-hazard';

const SCENARIOS = path.join(__dirname, '..', '..', '..', 'scenarios');

function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? yamlFiles(p) : /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}

describe('catastrophic regexes', () => {
  it.each([
    ['^(a+)+$', /\(a\+\)\+ repeats a part that repeats by itself/],
    ['(a*)*b', /\(a\*\)\* repeats a part that repeats by itself/],
    ['(.*)*x', /nested quantifiers/],
    ['^(\\w+\\s?)+$', /nested quantifiers/],
    ['(?:x(a+b?)+)y', /\(a\+b\?\)\+/],
    ['^(a|a)*$', /alternatives that match the same text \(a and a\)/],
    ['(a|aa)+$', /\(a and aa\)/],
    ['(\\w|\\d)+!', /\(\\w and \\d\)/],
    ['(?<n>.|x){2,}z', /\(\. and x\)/],
    ['(?=(a+)+)', /nested quantifiers/],
  ])('refuses %s', (pattern, why) => {
    expect(catastrophicRegex(pattern)).toMatch(why);
  });

  it.each([
    '[Ff]riday',
    '^The project\\.\\n?$',
    '(\\d+,)*\\d+',
    '(ab)+',
    'a+b+',
    '(a|b)*c',
    '(?:foo|bar)+baz',
    '\\d{4}-\\d{2}',
    '[(a+)+]',
    '\\(a+\\)+',
    '(a{2})+',
    '(\\s*,\\s*\\w+)*',
    'x{2,3}',
    '(a+){2}',
  ])('accepts %s', (pattern) => {
    expect(catastrophicRegex(pattern)).toBeUndefined();
  });

  it('refuses a scenario with one at load, naming file, line, column and field', () => {
    const text = [
      'id: mine/regex',
      'prompt: Say a.',
      'expect:',
      '  - termination: completed',
      '  - final_answer: { regex: "^(a+)+$" }',
      '  - event: tool_result',
      '    with: { name: { $regex: "(x|x)*y" } }',
      '',
    ].join('\n');
    const r = parseScenario(text, 'scenarios/mine.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map(formatProblem)).toEqual([
      expect.stringMatching(
        /^scenarios\/mine\.yaml:5:28: expect\[1\]\.final_answer\.regex: regex \/\^\(a\+\)\+\$\/ would hang a trial: \(a\+\)\+ repeats a part that repeats by itself/,
      ),
      expect.stringMatching(/^scenarios\/mine\.yaml:7:29: expect\[2\]\.with\.name\.\$regex: regex \/\(x\|x\)\*y\/ would hang a trial/),
    ]);
  });

  it("leaves a scripted model's tool arguments alone, and finds nothing in the bundled scenarios", () => {
    expect(regexHazards({ script: [{ tool_calls: [{ name: 'grep', arguments: { regex: '(a+)+' } }] }] })).toEqual([]);
    const files = yamlFiles(SCENARIOS);
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) expect([f, regexHazards(parse(fs.readFileSync(f, 'utf8')))]).toEqual([f, []]);
  });
});
