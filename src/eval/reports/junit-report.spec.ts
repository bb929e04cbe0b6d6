import { toJUnit } from './junit-report';
import { buildTrials, fixtureReport } from './report.test-kit';
import { childrenNamed, parseXml, propertiesOf, type XmlElement } from './xml.test-kit';
import { summarizeAll } from '../statistics/summarize';
import type { ReportInput } from './report-input';

function cases(suite: XmlElement): XmlElement[] {
  return childrenNamed(suite, 'testcase');
}

describe('the XML parser the JUnit tests rely on', () => {
  it.each([
    ['<a><b></a></b>'],
    ['<a>'],
    ['<a x="1" x="2"/>'],
    ['<a x=1/>'],
    ['<a>&nope;</a>'],
    ['<a>fish & chips</a>'],
    ['<a/><b/>'],
    ['text<a/>'],
    ['<a x="<"/>'],
    ['<a>x]]>y</a>'],
    ['<a>\u0001</a>'],
    ['<a>\u0000</a>'],
    ['<a x="\ufffe"/>'],
    ['<a>\ud800</a>'],
    ['<a>\udc00x</a>'],
    ['<a>&#0;</a>'],
    ['<a>&#x1b;</a>'],
    ['<a>&#xd800;</a>'],
  ])('rejects malformed %p', (xml) => {
    expect(() => parseXml(xml)).toThrow();
  });

  it('reads attributes, entities, text and CDATA', () => {
    const el = parseXml('<?xml version="1.0"?><a k="&lt;&amp;&quot;&#65;&#x42;"> x <![CDATA[<y]]]]><![CDATA[>]]><b/></a>');
    expect(el).toEqual({
      name: 'a',
      attributes: { k: '<&"AB' },
      text: ' x <y]]>',
      children: [{ name: 'b', attributes: {}, children: [], text: '' }],
    });
  });
});

describe('toJUnit', () => {
  const root = parseXml(toJUnit(fixtureReport()));
  const [suite] = childrenNamed(root, 'testsuite');

  it('writes one testsuite for the run with the totals the CI reads', () => {
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '5', failures: '2', errors: '1' });
    expect(childrenNamed(root, 'testsuite')).toHaveLength(1);
    expect(suite.attributes).toMatchObject({ name: 'loupe eval run-1', timestamp: '2026-09-01T10:00:00.000Z', time: '12.345', tests: '5' });
    expect(propertiesOf(suite).slice(0, 8)).toEqual([
      ['run_id', 'run-1'],
      ['backend', 'Ollama at http://gpu:11434'],
      ['trials', '15'],
      ['passed', '11'],
      ['failed', '3'],
      ['unjudged', '0'],
      ['errored', '1'],
      // Wilson 95% of 11/14 (see proportion.spec for the formula's checks)
      ['pass_rate', '0.786 [0.524, 0.924]'],
    ]);
  });

  it('writes one testcase per scenario × model × configuration, in summary order', () => {
    expect(cases(suite).map((c) => [c.attributes.classname, c.attributes.name, c.attributes.file, c.attributes.time])).toEqual([
      ['read-file', 'llama3.1:8b [default]', 'scenarios/read-file.yaml', '4.5'],
      ['read-file', 'qwen3:8b [default]', 'scenarios/read-file.yaml', '4.5'],
      ['read-file', 'qwen3:8b [temperature=0]', 'scenarios/read-file.yaml', '4.5'],
      ['write-file', 'qwen3:8b [default]', 'scenarios/write-file.yaml', '4.5'],
      ['write-file', 'qwen3:8b [temperature=0]', 'scenarios/write-file.yaml', '4.5'],
    ]);
  });

  it('puts the trial counts, pass rate with interval, pass^k and pathology rates in properties', () => {
    // 1 passed of 3: Wilson 95% [0.0615, 0.7923]; pass^1 = 1/3, pass^3 = C(1,3)/C(3,3) = 0
    expect(propertiesOf(cases(suite)[4])).toEqual([
      ['trials', '3'],
      ['passed', '1'],
      ['failed', '2'],
      ['unjudged', '0'],
      ['errored', '0'],
      ['pass_rate', '0.333 [0.061, 0.792]'],
      // bootstrap: c* ~ Binomial(3, 1/3), P(c* = 0) = 8/27 and P(c* = 3) = 1/27 are both beyond 2.5%
      ['pass^1', '0.333'],
      ['pass^1.interval', '[0.000, 1.000]'],
      ['pass^1.cells', '1'],
      ['pass^3', '0.000'],
      ['pass^3.interval', '[0.000, 1.000]'],
      ['pass^3.cells', '1'],
      ['pathology.repeat_break', '1/3 trials, rate 0.333 [0.061, 0.792], events 2'],
      ['pathology.max_iterations', '1/3 trials, rate 0.333 [0.061, 0.792], events 1'],
    ]);
    // two judged trials cannot say anything about 3 of them
    expect(propertiesOf(cases(suite)[3])).toContainEqual(['pass^3', 'n/a']);
    expect(propertiesOf(cases(suite)[3])).toContainEqual(['pass^3.cells', '0 (1 with too few judged trials)']);
  });

  it('marks a cell with failed trials as a failure listing their failed expectations', () => {
    const [failure] = childrenNamed(cases(suite)[1], 'failure');
    expect(failure.attributes).toEqual({ message: '1 of 3 judged trials failed', type: 'expectations' });
    expect(failure.text).toBe(
      [
        'trial 2 (session sess-read-file-2):',
        '  ✗ event tool.call with {"name":"read_file"} is recorded — found 0 matching; tool.call payloads recorded: none',
        '  ✗ session terminates with final_answer',
      ].join('\n'),
    );
    expect(childrenNamed(cases(suite)[4], 'failure')[0].text).toBe(
      [
        'trial 1 (session sess-write-file-1):',
        '  ✗ file out.txt equals "a|b" — file content: "a"',
        'trial 2 (session sess-write-file-2):',
        '  ✗ iterations <= 5 — ran 8 iterations',
      ].join('\n'),
    );
  });

  it('marks a cell with errored trials as an error with their messages, apart from failures', () => {
    const c = cases(suite)[3];
    expect(childrenNamed(c, 'failure')).toEqual([]);
    const [error] = childrenNamed(c, 'error');
    expect(error.attributes).toEqual({ message: '1 of 3 trials errored', type: 'infrastructure' });
    expect(error.text).toBe('trial 3: ollama: connect ECONNREFUSED <127.0.0.1:11434>');
  });

  it('leaves passing cells without failure or error', () => {
    for (const i of [0, 2]) expect(cases(suite)[i].children.map((c) => c.name)).toEqual(['properties']);
  });

  it('can write one testsuite per scenario', () => {
    const r = parseXml(toJUnit(fixtureReport(), { suites: 'scenario' }));
    expect(
      childrenNamed(r, 'testsuite').map((s) => [
        s.attributes.name,
        s.attributes.tests,
        s.attributes.failures,
        s.attributes.errors,
        cases(s).length,
      ]),
    ).toEqual([
      ['read-file', '3', '1', '0', 3],
      ['write-file', '2', '1', '1', 2],
    ]);
    expect(r.attributes).toMatchObject({ tests: '5', failures: '2', errors: '1' });
  });

  it('stays well-formed whatever the messages hold (markup, CDATA terminators, control characters)', () => {
    const hostile = 'a <b> & "c" ]]> d \u001b[31mred\u001b[0m \u0000';
    const { trials, outcomes } = buildTrials('run-x', [
      {
        scenarioId: 's<1>',
        model: 'm&"x"',
        configKey: 'k=a]]>b',
        statuses: 'FE',
        failed: { 1: [{ expectation: hostile, passed: false, detail: hostile }] },
        errors: { 2: hostile },
      },
    ]);
    const report: ReportInput = {
      runId: 'r&1',
      startedAt: 'now',
      durationMs: 1,
      backend: { kind: 'standin' },
      passed: 0,
      failed: 1,
      unjudged: 0,
      errored: 1,
      notRun: 2,
      mode: 'scripted',
      models: [],
      configurations: [],
      trialsPerCell: 2,
      stoppedBy: hostile,
      trials,
      summaries: summarizeAll(outcomes),
    };
    const r = parseXml(toJUnit(report));
    const [s] = childrenNamed(r, 'testsuite');
    expect(propertiesOf(s).slice(0, 4)).toEqual([
      ['run_id', 'r&1'],
      ['backend', 'Ollama stand-in'],
      ['not_run', '2'],
      ['stopped_by', expect.stringContaining('a <b> & "c" ]]> d')],
    ]);
    const [c] = cases(s);
    expect(c.attributes).toMatchObject({ classname: 's<1>', name: 'm&"x" [k=a]]>b]' });
    expect(childrenNamed(c, 'failure')[0].text).toContain('✗ a <b> & "c" ]]> d');
    expect(childrenNamed(c, 'error')[0].text).toContain('trial 2: a <b> & "c" ]]> d');
  });

  it('writes an empty run as an empty suite', () => {
    const report: ReportInput = { ...fixtureReport(), trials: [], summaries: summarizeAll([]) };
    const r = parseXml(toJUnit(report));
    expect(r.attributes).toMatchObject({ tests: '0', failures: '0', errors: '0' });
    expect(cases(childrenNamed(r, 'testsuite')[0])).toEqual([]);
  });

  it('builds each report afresh (the package exports a shared builder)', () => {
    expect(toJUnit(fixtureReport())).toBe(toJUnit(fixtureReport()));
  });
});
