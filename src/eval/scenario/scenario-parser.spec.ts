import { formatProblem } from './scenario-errors';
import { parseScenario } from './scenario-parser';

const valid = `id: direct-process/normal
title: Normal tool loop completion
spec: direct-process.spec.md#scenario-normal-tool-loop-completion
prompt: Read a.txt
workspace:
  files:
    a.txt: hello
script:
  - tool_calls:
      - name: read_file
        arguments: { path: a.txt }
  - content: Done.
    fault: { kind: http, status: 503, retry_after_seconds: 1 }
expect:
  - termination: completed
  - event: tool_result
    with: { name: read_file }
`;

describe('parseScenario', () => {
  it('converts a valid scenario to its runtime shape', () => {
    const r = parseScenario(valid, 'scenarios/x.yaml');
    if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
    expect(r.scenario.id).toBe('direct-process/normal');
    expect(r.scenario.workspaceFiles).toEqual({ 'a.txt': 'hello' });
    expect(r.scenario.script.turns['*']).toEqual(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
        { content: 'Done.', fault: { kind: 'http', status: 503, retryAfterSeconds: 1 } },
      ].map((t) => expect.objectContaining(t)),
    );
    expect(r.scenario.expect).toEqual([{ termination: 'completed' }, { event: 'tool_result', with: { name: 'read_file' } }]);
    expect(r.scenario.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a scenario for real models needs no script (nor title or spec): the stand-in then has no turns', () => {
    const r = parseScenario('id: mine/live\nprompt: Say done.\nexpect:\n  - termination: completed\n', 'mine.yaml');
    if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
    expect(r.scenario.script).toEqual({ turns: {} });
    expect([r.scenario.title, r.scenario.spec]).toEqual(['mine/live', '']);
  });

  it('a scenario with success criteria only is valid: it has no expectations (its scripted trials are judged by success)', () => {
    const r = parseScenario('id: mine/live\nprompt: Say done.\nsuccess:\n  - final_answer: { contains: done }\n', 'mine.yaml');
    if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
    expect(r.scenario.expect).toEqual([]);
    expect(r.scenario.success).toEqual([{ final_answer: { contains: 'done' } }]);
  });

  const cases: Array<[string, string, { line: number; field: string; message: RegExp }]> = [
    [
      'a YAML syntax error names the line',
      valid.replace('title: Normal tool loop completion', 'title: Normal: tool loop'),
      { line: 2, field: 'title', message: /YAML syntax error/ },
    ],
    [
      'a wrong type names the field path and its line',
      valid.replace('name: read_file\n', 'name: 42\n'),
      { line: 10, field: 'script[0].tool_calls[0].name', message: /expected string/ },
    ],
    [
      'an unknown field is named with its line',
      valid.replace('  - content: Done.', '  - contnet: Done.'),
      { line: 12, field: 'script[1].contnet', message: /unknown field/ },
    ],
    [
      'a missing required field points at its parent',
      valid.replace('prompt: Read a.txt\n', ''),
      { line: 1, field: 'prompt', message: /expected string/ },
    ],
    [
      'a scenario with neither expect nor success has nothing to judge',
      valid.slice(0, valid.indexOf('expect:')),
      { line: 1, field: 'expect', message: /needs `expect` .* or `success`/ },
    ],
    [
      'a bad fault kind is rejected',
      valid.replace('kind: http', 'kind: explode'),
      { line: 13, field: 'script[1].fault.kind', message: /./ },
    ],
  ];

  it('loads an unknown expectation kind as a false expectation, said where it is', () => {
    const r = parseScenario(valid.replace('  - termination: completed', '  - terminates: completed'), 'scenarios/x.yaml');
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.scenario.unsatisfiable?.expect).toEqual([
      expect.objectContaining({
        file: 'scenarios/x.yaml',
        line: 15,
        field: 'expect[0]',
        message: expect.stringMatching(/unknown expectation/),
      }),
    ]);
    // the other expectation stays
    expect(r.scenario.expect).toEqual([{ event: 'tool_result', with: { name: 'read_file' } }]);
  });

  describe('expect_by_profile', () => {
    const byProfile = (lists: string) => parseScenario(`${valid}expect_by_profile:\n${lists}`, 'scenarios/x.yaml');

    it('keeps the exact checks of each other profile, in their runtime shape', () => {
      const r = byProfile('  opencode:\n    - termination: permission_rejected\n  corvid:\n    - tools_used: [read_file]\n');
      if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
      expect(r.scenario.expectByProfile).toEqual({
        opencode: [{ termination: 'permission_rejected' }],
        corvid: [{ tools_used: ['read_file'] }],
      });
      expect(r.scenario.unsatisfiable).toBeUndefined();
    });

    it('refuses an unknown profile name with the closest one, at its line', () => {
      const r = byProfile('  corvid:\n    - termination: completed\n  opencod:\n    - termination: completed\n');
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.problems).toEqual([
        expect.objectContaining({
          file: 'scenarios/x.yaml',
          line: 21,
          field: 'expect_by_profile.opencod',
          message: expect.stringMatching(/opencode/),
        }),
      ]);
    });

    it('refuses a list for a profile the scenario is written for: `expect` judges it there', () => {
      const r = byProfile('  loupe:\n    - termination: completed\n');
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.problems).toEqual([
        expect.objectContaining({ line: 19, field: 'expect_by_profile.loupe', message: expect.stringMatching(/`expect`/) }),
      ]);
    });

    it('takes out an expectation that can never hold as a false one of that profile, said where it is', () => {
      const r = byProfile('  dexto:\n    - termination: completed\n    - event: tool_reslt\n');
      if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
      expect(r.scenario.expectByProfile).toEqual({ dexto: [{ termination: 'completed' }] });
      expect(r.scenario.unsatisfiable?.expectByProfile?.dexto).toEqual([
        expect.objectContaining({ line: 21, field: 'expect_by_profile.dexto[1].event', message: expect.stringMatching(/tool_result/) }),
      ]);
      expect(r.scenario.unsatisfiable?.expect).toEqual([]);
    });
  });

  it.each(cases)('%s', (_name, text, want) => {
    const r = parseScenario(text, 'scenarios/x.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems[0]).toEqual(expect.objectContaining({ file: 'scenarios/x.yaml', line: want.line, field: want.field }));
    expect(r.problems[0].message).toMatch(want.message);
  });
});
