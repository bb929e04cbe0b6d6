// `tools:` names and file-check paths are bad input (nothing runs, exit 2) with file, line and field:
// a typo'd tool used to be dropped silently, and a file check outside the workspace passed vacuously.
import { formatProblem } from './scenario-errors';
import { parseScenario } from './scenario-parser';

const scenario = (head: string, expect = '  - termination: completed\n', tail = '') =>
  `id: t\nprompt: go\n${head}script:\n  - content: done\nexpect:\n${expect}${tail}`;

function problemsOf(text: string): string[] {
  const r = parseScenario(text, 'scenarios/t.yaml');
  if (r.ok) throw new Error('expected the scenario to be rejected');
  return r.problems.map(formatProblem);
}

const loads = (text: string) => {
  const r = parseScenario(text, 'scenarios/t.yaml');
  if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
  return r.scenario;
};

describe('scenario tools: names', () => {
  it('refuses a name no tool has, with the closest known one', () => {
    expect(problemsOf(scenario('tools: [read_file, rm_rf, exec_comand]\n'))).toEqual([
      expect.stringMatching(
        /^scenarios\/t\.yaml:3:20: tools\[1\]: unknown tool "rm_rf" \(known: read_file, write_file, list_files, execute_command, run_command\)$/,
      ),
      expect.stringMatching(/^scenarios\/t\.yaml:3:27: tools\[2\]: unknown tool "exec_comand"; did you mean "execute_command"\?/),
    ]);
    expect(problemsOf(scenario('tools:\n  - list_files\n  - writefile\n'))).toEqual([
      expect.stringMatching(/^scenarios\/t\.yaml:5:5: tools\[1\]: unknown tool "writefile"; did you mean "write_file"\?/),
    ]);
  });

  it("takes the built-in tools, and a declared MCP server's tools by their qualified name", () => {
    expect(loads(scenario('tools: [read_file, execute_command, run_command]\n')).tools).toEqual([
      'read_file',
      'execute_command',
      'run_command',
    ]);
    const mcp = 'mcp_servers:\n  - { name: fs, command: node, args: [server.js] }\n';
    expect(loads(scenario(`${mcp}tools: [read_file, fs__stat]\n`)).tools).toEqual(['read_file', 'fs__stat']);
    expect(problemsOf(scenario(`${mcp}tools: [stat, other__stat, fs__]\n`))).toEqual([
      expect.stringMatching(/tools\[0\]: unknown tool "stat" .*a tool of a declared MCP server is named <server>__<tool> \(fs\)$/),
      expect.stringMatching(/tools\[1\]: unknown tool "other__stat"/),
      expect.stringMatching(/tools\[2\]: unknown tool "fs__"/),
    ]);
  });
});

describe('scenario file checks: paths', () => {
  it.each([
    ['expect', scenario('', '  - file: ../../../outside/secret.txt\n    exists: false\n'), 'expect[0].file', 6, /leaves the workspace/],
    ['expect', scenario('', '  - termination: completed\n  - file: /etc/passwd\n    exists: true\n'), 'expect[1].file', 7, /is absolute/],
    ['expect', scenario('', '  - file: a/../../b.txt\n'), 'expect[0].file', 6, /leaves the workspace/],
    ['expect', scenario('', '  - file: C:\\\\x.txt\n'), 'expect[0].file', 6, /is absolute/],
    [
      'success',
      scenario('', '  - termination: completed\n', 'success:\n  - file: ../x.txt\n    contains: y\n'),
      'success[0].file',
      8,
      /leaves the workspace/,
    ],
    [
      'expect_by_profile',
      scenario('', '  - termination: completed\n', 'expect_by_profile:\n  corvid:\n    - file: ..\n'),
      'expect_by_profile.corvid[0].file',
      9,
      /leaves the workspace/,
    ],
  ])('refuses a %s file check outside the workspace (%#)', (_list, text, field, line, message) => {
    const problems = problemsOf(text);
    expect(problems).toEqual([
      expect.stringMatching(new RegExp(`^scenarios/t\\.yaml:${line}:\\d+: ${field.replace(/[[\].]/g, '\\$&')}: `)),
    ]);
    expect(problems[0]).toMatch(message);
  });

  it('takes a path that stays inside once `..` is resolved', () => {
    const s = loads(scenario('', '  - file: out/../notes.txt\n    exists: false\n  - file: ./a.txt\n'));
    expect(s.expect).toEqual([{ file: 'out/../notes.txt', exists: false }, { file: './a.txt' }]);
  });
});
