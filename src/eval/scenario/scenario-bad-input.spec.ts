// Bad input is caught at load with file, line and field path — never a run that misbehaves or an
// expectation that passes vacuously.
import { parseScenario } from './scenario-parser';

const base = (extra: string, expect = '  - termination: completed\n') => `id: t
title: t
spec: test
prompt: go
${extra}script:
  - content: done
expect:
${expect}`;

function problemsOf(text: string) {
  const r = parseScenario(text, 'scenarios/t.yaml');
  if (r.ok) throw new Error('expected the scenario to be rejected');
  return r.problems;
}

/** A name the journal lacks is no malformed document: the scenario loads, the expectation is taken out as one that can never hold. */
function unsatisfiableOf(text: string) {
  const r = parseScenario(text, 'scenarios/t.yaml');
  if (!r.ok) throw new Error(`expected the scenario to load; got ${JSON.stringify(r.problems)}`);
  return { scenario: r.scenario, found: [...(r.scenario.unsatisfiable?.expect ?? []), ...(r.scenario.unsatisfiable?.success ?? [])] };
}

/** Bad input, or a name the journal lacks: either way, the file, line, field and the closest name. */
function findingsOf(text: string) {
  const r = parseScenario(text, 'scenarios/t.yaml');
  return r.ok ? unsatisfiableOf(text).found : r.problems;
}

describe("scenario vocabulary is the journal's", () => {
  it.each([
    [
      'a misspelt event type',
      '  - no_event: sloot_released\n',
      'expect[0].no_event',
      8,
      /unknown event type "sloot_released"; did you mean "slot_released"\?/,
    ],
    ['an unknown event in event:', '  - event: tool_reslt\n', 'expect[0].event', 8, /did you mean "tool_result"/],
    [
      'a misspelt termination reason',
      '  - termination: compleetd\n',
      'expect[0].termination',
      8,
      // the closest reason, then every reason there is
      /unknown termination reason "compleetd"; did you mean "completed"\? \(known: completed, max_iterations, .*, expired\)/,
    ],
    [
      'a payload field the event does not have',
      '  - event: slot_acquired\n    with: { waitMS: 0 }\n',
      'expect[0].with.waitMS',
      9,
      /unknown field of slot_acquired payloads "waitMS"; did you mean "waitMs"\?/,
    ],
    [
      'a nested payload field',
      '  - event: compaction\n    with: { usage: { inputTokenz: 1 } }\n',
      'expect[0].with.usage.inputTokenz',
      9,
      /did you mean "inputTokens"/,
    ],
    [
      'an unknown payload operator',
      '  - event: slot_acquired\n    with: { waitMs: { $gtee: 0 } }\n',
      'expect[0].with.waitMs.$gtee',
      9,
      /unknown payload operator \$gtee/,
    ],
    ['an unknown message kind', '  - message: { kind: nugde }\n', 'expect[0].message.kind', 8, /nudge/],
  ])('%s is found at load', (_name, expectations, field, line, message) => {
    const [p] = findingsOf(base('', expectations));
    expect(p.field).toBe(field);
    expect(p.line).toBe(line);
    expect(p.message).toMatch(message);
  });

  it.each([
    [
      'a same-event reference to a missing field',
      '  - event: tool_result_capped\n    with: { keptChars: { $lte: { $ref: maxChar } } }\n',
      'expect[0].with.keptChars.$lte.$ref',
      /unknown field of tool_result_capped payloads "maxChar"; did you mean "maxChars"\?/,
    ],
    [
      'a reference to an unknown event',
      '  - event: tool_result_capped\n    with: { maxChars: { $lt: { $ref: { event: tool_result_capd, field: maxChars } } } }\n',
      'expect[0].with.maxChars.$lt.$ref.event',
      /did you mean "tool_result_capped"/,
    ],
    [
      'a reference to a field another event lacks',
      '  - event: tool_result_capped\n    with: { maxChars: { $lt: { $ref: { event: slot_acquired, field: maxChars } } } }\n',
      'expect[0].with.maxChars.$lt.$ref.field',
      /unknown field of slot_acquired payloads/,
    ],
    [
      'an order reference to an unknown event',
      '  - event: tool_call\n    after: sloot_acquired\n',
      'expect[0].after',
      /did you mean "slot_acquired"/,
    ],
    ['a bad regular expression', '  - final_answer: { regex: "(unclosed" }\n', 'expect[0].final_answer.regex', /not a regular expression/],
    ['a bad regular expression on a file', '  - { file: out.txt, regex: "(unclosed" }\n', 'expect[0].regex', /not a regular expression/],
    [
      'a bad regular expression on a message',
      '  - message: { role: assistant, regex: "[z-a]" }\n',
      'expect[0].message.regex',
      /not a regular expression/,
    ],
  ])('%s is found at load', (_name, expectations, field, message) => {
    const problems = findingsOf(base('', expectations));
    const p = problems.find((x) => x.field === field);
    if (!p) throw new Error(`no problem at ${field}; got ${JSON.stringify(problems)}`);
    expect(p.message).toMatch(message);
  });

  it('loads a scenario whose expectation names what the journal lacks, that expectation out of its list and failing when judged', () => {
    const { scenario, found } = unsatisfiableOf(
      `${base('', '  - termination: completed\n  - event: tool_reslt\n')}success:\n  - termination: compleetd\n`,
    );
    expect(scenario.expect).toEqual([{ termination: 'completed' }]);
    expect(scenario.success).toEqual([]);
    expect(scenario.unsatisfiable?.expect.map((p) => [p.file, p.line, p.field])).toEqual([['scenarios/t.yaml', 9, 'expect[1].event']]);
    expect(scenario.unsatisfiable?.success.map((p) => p.field)).toEqual(['success[0].termination']);
    expect(found).toHaveLength(2);
    // a malformed entry beside it is a false expectation too; malformed input outside the lists is bad input
    const malformed = unsatisfiableOf(base('', '  - event: tool_reslt\n  - final_answer: done\n  - terminates: completed\n'));
    expect(malformed.scenario.expect).toEqual([]);
    expect(malformed.found.map((p) => [p.field, p.line])).toEqual([
      ['expect[0].event', 8],
      ['expect[1].final_answer', 9],
      ['expect[2]', 10],
    ]);
    expect(malformed.found[1].message).toMatch(/expected object/);
    expect(problemsOf(base('kill:\n  on_event: [x]\n', '  - final_answer: done\n')).map((p) => p.field)).toEqual([
      'kill.on_event',
      'expect[0].final_answer',
    ]);
  });

  it.each([
    [
      'an unknown message kind',
      '  - message: { kind: nugde }\n',
      'expect[1].message.kind',
      /unknown message kind "nugde"; did you mean "nudge"/,
    ],
    ['an unknown message role', '  - message: { role: wizard }\n', 'expect[1].message.role', /unknown message role "wizard"/],
    ['an unknown role of a request', '  - request: 1\n    roles: [wizard]\n', 'expect[1].roles[0]', /unknown message role "wizard"/],
    ['a count range upside down', '  - event: tool_call\n    count: { min: 3, max: 1 }\n', 'expect[1].count', /min 3 is above max 1/],
    ['a negative count', '  - iterations: -1\n', 'expect[1].iterations', /never negative/],
    ['a count that is not a whole number', '  - event: tool_call\n    count: 2.5\n', 'expect[1].count', /always a whole number/],
    ['a count past any run', '  - tool_calls: 2000000000\n', 'expect[1].tool_calls', /never above 1000000000/],
    ['request number 0', '  - request: 0\n', 'expect[1].request', /never below 1/],
    ['a negative transcript position', '  - message: { position: -1 }\n', 'expect[1].message.position', /never negative/],
    ['a negative iteration', '  - message: { iteration: -2 }\n', 'expect[1].message.iteration', /never negative/],
    ['occurrence 0', '  - event: tool_call\n    occurrence: 0\n', 'expect[1].occurrence', /never below 1/],
    ['an empty termination reason', "  - termination: ''\n", 'expect[1].termination', /unknown termination reason/],
    ['an empty file name', "  - file: ''\n    exists: true\n", 'expect[1].file', /names no file/],
    ['an empty tool name in tools_used', "  - tools_used: [read_file, '']\n", 'expect[1].tools_used[1]', /names no tool/],
    ['an empty tool name of a tool result', "  - message: { tool: '' }\n", 'expect[1].message.tool', /names no tool/],
    [
      'content of a file that must not exist',
      '  - file: a.txt\n    exists: false\n    contains: x\n',
      'expect[1].contains',
      /exists: false and contains: a file that does not exist has no content/,
    ],
  ])('loads a scenario with %s as a false expectation: out of its list, failing when judged', (_name, entry, field, message) => {
    const { scenario } = unsatisfiableOf(base('', `  - termination: completed\n${entry}`));
    expect(scenario.expect).toEqual([{ termination: 'completed' }]);
    expect(scenario.unsatisfiable?.expect.map((p) => p.field)).toEqual([field]);
    expect(scenario.unsatisfiable?.expect[0].message).toMatch(message);
  });

  it("lets success criteria say only what a live model's outcome can be judged by", () => {
    const ok = parseScenario(
      `${base('')}success:\n  - final_answer: { contains: done }\n  - tools_used: [write_file]\n  - iterations: { max: 10 }\n`,
      't.yaml',
    );
    expect(ok.ok).toBe(true);
    // an expectation kind success criteria do not have: a criterion that fails wherever success is judged
    const { scenario } = unsatisfiableOf(`${base('')}success:\n  - event: nudge\n`);
    expect(scenario.success).toEqual([]);
    expect(scenario.unsatisfiable?.success).toEqual([
      expect.objectContaining({ field: 'success[0]', message: expect.stringMatching(/unknown success criterion/) }),
    ]);
  });

  it('checks trigger events and their payload fields too', () => {
    const problems = problemsOf(base('kill:\n  on_event: tool_cal\n  with: { nmae: x }\n'));
    expect(problems.map((p) => [p.field, p.line])).toEqual([['kill.on_event', 6]]);
    expect(problems[0].message).toMatch(/did you mean "tool_call"/);
    const fields = problemsOf(base('inject:\n  - on_event: tool_call\n    with: { nmae: x }\n    text: hi\n'));
    expect(fields[0]).toEqual(
      expect.objectContaining({ field: 'inject[0].with.nmae', line: 7, message: expect.stringMatching(/did you mean "name"/) }),
    );
  });

  it('accepts every declared field, operators and values matched inside arrays', () => {
    const r = parseScenario(
      base('', '  - event: tool_calls_extracted\n    with: { names: [read_file], count: { $gte: 1 }, strategy: { $exists: true } }\n'),
      't.yaml',
    );
    expect(r.ok).toBe(true);
  });
});

describe('numbers and paths are bounded at load', () => {
  const cases: Array<{ name: string; extra?: string; script?: string; expectations?: string; field: string; message: RegExp }> = [
    {
      name: 'a tool timeout Node cannot time',
      extra: 'config: { tool_timeout_ms: 2147483648 }\n',
      field: 'config.tool_timeout_ms',
      message: /at most 2147483647 ms/,
    },
    {
      name: 'a huge fault repeat count',
      script: '  - content: x\n    fault: { kind: http, status: 503, times: 100000000 }\n',
      field: 'script[0].fault.times',
      message: /10000/,
    },
    {
      name: 'a negative VRAM size',
      extra: 'catalog:\n  - { name: m, family: llama, parameter_size: 8B, capabilities: [completion], vram_bytes: -1 }\n',
      field: 'catalog[0].vram_bytes',
      message: />=0|0/,
    },
    { name: 'num_gpu below -1', extra: 'ollama: { num_gpu: -5 }\n', field: 'ollama.num_gpu', message: /-1/ },
    {
      name: 'a slot hold Node cannot time',
      extra: 'setup: { hold_slots: [{ model: m, release_after_ms: 99999999999 }] }\n',
      field: 'setup.hold_slots[0].release_after_ms',
      message: /at most/,
    },
    {
      name: 'a trigger delay Node cannot time',
      extra: 'kill: { on_event: tool_call, after_ms: 3000000000 }\n',
      field: 'kill.after_ms',
      message: /at most/,
    },
  ];

  it.each(cases)('$name is bad input', (c) => {
    let text = base(c.extra ?? '', c.expectations);
    if (c.script) text = text.replace('  - content: done\n', c.script);
    const problems = problemsOf(text);
    const p = problems.find((x) => x.field === c.field);
    if (!p) throw new Error(`no problem at ${c.field}; got ${JSON.stringify(problems)}`);
    expect(p.line).toBeGreaterThan(0);
    expect(p.message).toMatch(c.message);
  });

  it.each([
    ['../outside.txt', /leaves the workspace/],
    ['a/../../x', /leaves the workspace/],
    ['/etc/passwd', /is absolute/],
    ['~/.ssh/id_rsa', /starts with ~/],
    ['./', /names no file/],
  ])('rejects the workspace file %s at load, with its line', (name, message) => {
    const [p] = problemsOf(base(`workspace:\n  files:\n    "${name}": x\n`));
    expect(p.field).toBe(`workspace.files.${name}`);
    expect(p.line).toBe(7);
    expect(p.message).toMatch(message);
  });

  it('reports a YAML alias bomb as bad input with a line, without expanding it', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
      ),
    ].join('\n');
    const started = Date.now();
    const [p] = problemsOf(`${bomb}\n${base('')}`);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(p.message).toMatch(/aliases expand too far/);
    expect(p.line).toBe(2);
  });
});
