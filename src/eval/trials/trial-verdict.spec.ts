import { recordedEvents } from '../expectations/recorded-events.test-kit';
import type { RecordedSession } from '../expectations/recorded-session';
import type { Configuration } from '../run-plan';
import { parseScenario } from '../scenario/scenario-parser';
import { filesToRead, judgeTrial, judgedAs } from './trial-verdict';
import { latencyOf, pathologiesOf, tokensOf } from './trial-outcome';

// what the recorder wrote, numbered in order by the kit
const recorded = [
  { type: 'session_started', payload: { settings: { maxToolIterations: 25, numCtx: 8192 } } },
  { type: 'slot_acquired', payload: { waitMs: 40 } },
  { type: 'tool_call', payload: { id: 'a', name: 'read_file' } },
  { type: 'tool_name_repaired', payload: {} },
  { type: 'tool_result', payload: { id: 'a', chars: 10 } },
  { type: 'nudge', payload: { reason: 'tooShort' } },
  { type: 'nudge', payload: { reason: 'promisedAction' } },
  { type: 'nudge', payload: { reason: 'tooShort', exhausted: true } },
  { type: 'slot_released', payload: {} },
  { type: 'session_finished', payload: { workingMs: 900 } },
];

const base: RecordedSession = {
  terminationReason: 'completed',
  iterations: 2,
  toolCallCount: 1,
  finalAnswer: 'done: 8080',
  hostEvents: [],
  messages: [],
  files: {},
  requests: null,
  toolCalls: [{ id: 'a', name: 'read_file', status: 'completed' }],
  events: recordedEvents(recorded),
  iterationRows: [
    {
      idx: 0,
      status: 'finished',
      inputTokens: 100,
      outputTokens: 20,
      firstTokenMs: 30,
      loadMs: 500,
      prefillMs: 50,
      decodeMs: 80,
      serverQueueMs: 5,
    },
    {
      idx: 1,
      status: 'finished',
      inputTokens: 150,
      outputTokens: 10,
      firstTokenMs: 12,
      loadMs: 0,
      prefillMs: 60,
      decodeMs: 40,
      serverQueueMs: null,
    },
  ],
};

describe("a trial's verdict", () => {
  it('judges a scripted run by its expectations, a live run by its success criteria', () => {
    const checks = { expect: [{ final_answer_contains: 'nope' }], success: [{ final_answer: { contains: '8080' } }] };
    expect(judgeTrial(base, checks, 'scripted').status).toBe('failed');
    expect(judgeTrial(base, checks, 'live').status).toBe('passed');
  });

  it('makes a real-model session its provider ended an error, whatever its success criteria (none would pass it)', () => {
    const error = { type: 'error', payload: { kind: 'connection', message: 'connect ECONNREFUSED 127.0.0.1:11434' } };
    const down: RecordedSession = {
      ...base,
      terminationReason: 'provider_error',
      finalAnswer: '',
      events: recordedEvents([...recorded.slice(0, -2), error, ...recorded.slice(-2)]),
    };
    const v = judgeTrial(down, { expect: [], success: [] }, 'live', { realModel: true });
    expect(v).toEqual(
      expect.objectContaining({ status: 'error', error: 'the provider failed (connection): connect ECONNREFUSED 127.0.0.1:11434' }),
    );
    expect(judgeTrial({ ...base, terminationReason: 'slot_timeout' }, { expect: [] }, 'live', { realModel: true }).status).toBe('error');
    // a scripted stand-in injects provider faults on purpose: judged by what the scenario says of them
    expect(judgeTrial(down, { expect: [{ termination: 'provider_error' }] }, 'scripted').status).toBe('passed');
    expect(judgeTrial(down, { expect: [], success: [] }, 'live').status).toBe('unjudged');
    // a model that answered, with no success criteria to judge it: unjudged, never a pass
    expect(judgeTrial(base, { expect: [], success: [] }, 'live', { realModel: true }).status).toBe('unjudged');
  });

  it('fails an expectation naming what the journal lacks (taken out at load) wherever its list is judged', () => {
    const problem = { file: 't.yaml', line: 9, column: 5, field: 'expect[1].event', message: 'unknown event type "tool_reslt"' };
    const checks = { expect: [], success: [], unsatisfiable: { expect: [problem], success: [] } };
    const v = judgeTrial(base, checks, 'scripted');
    expect(v.status).toBe('failed');
    expect(v.failed).toEqual([
      { expectation: 'expect[1].event: unknown event type "tool_reslt"', passed: false, detail: 't.yaml:9: cannot pass as written' },
    ]);
    expect(judgeTrial(base, checks, 'live').status).toBe('unjudged');
  });

  it('judges a scripted trial by success when its scenario has no expectations, and by expect when it has any', () => {
    const jobOf = (lists: string) => {
      const r = parseScenario(`id: t/judge\nprompt: Say done.\nscript: [{ content: Done. }]\n${lists}`, 't.yaml');
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      const config: Configuration = { key: 'default', overrides: {} };
      return { scenario: r.scenario, config };
    };
    const successOnly = jobOf('success:\n  - final_answer: { contains: Done }\n');
    expect(judgedAs(successOnly, 'scripted')).toBe('success');
    const both = jobOf('expect:\n  - termination: completed\nsuccess:\n  - final_answer: { contains: Done }\n');
    expect(judgedAs(both, 'scripted')).toBe('expect');
    expect(judgedAs(both, 'scripted', 'success')).toBe('success');
    expect(judgedAs(both, 'live')).toBe('success');
    // expectations that can never hold are still the scenario's expectations: they are what fails it
    const neverHolds = jobOf('expect:\n  - event: made_up_event\nsuccess:\n  - final_answer: { contains: Done }\n');
    expect(neverHolds.scenario.expect).toEqual([]);
    expect(judgedAs(neverHolds, 'scripted')).toBe('expect');
  });

  describe('under a profile the scenario was not written for', () => {
    const scenario = (() => {
      const r = parseScenario(
        [
          'id: t/by-profile',
          'prompt: Write out.txt.',
          'script: [{ content: Done. }]',
          'expect:',
          '  - termination: completed',
          'success:',
          '  - final_answer: { contains: Done }',
          'expect_by_profile:',
          '  opencode:',
          '    - termination: permission_rejected',
          '    - file: opencode.txt',
          '      exists: false',
          '  dexto:',
          '    - event: made_up_event',
          '',
        ].join('\n'),
        't.yaml',
      );
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      return r.scenario;
    })();
    const under = (profile: string) => ({ scenario, config: { key: `profile=${profile}`, overrides: { profile } } as Configuration });

    it("judges a scripted trial by that profile's list where the scenario states one, else by success", () => {
      expect(['loupe', 'opencode', 'dexto', 'corvid'].map((p) => judgedAs(under(p), 'scripted'))).toEqual([
        'expect',
        'expect_by_profile',
        // a list whose every entry can never hold still judges (and fails) its profile's trials
        'expect_by_profile',
        'success',
      ]);
      // a live model is judged by outcomes under every profile; so is every trial with --judge success
      expect(judgedAs(under('opencode'), 'live')).toBe('success');
      expect(judgedAs(under('opencode'), 'scripted', 'success')).toBe('success');
    });

    it("checks that profile's list, and reads the files it names", () => {
      const opencode = judgeTrial(base, scenario, 'expect_by_profile', { profile: 'opencode' });
      expect(opencode.status).toBe('failed');
      expect(opencode.checks.map((c) => [c.expectation, c.passed])).toEqual([
        [expect.stringMatching(/terminates with permission_rejected/), false],
        [expect.stringMatching(/opencode\.txt/), true],
      ]);
      expect(
        judgeTrial({ ...base, terminationReason: 'permission_rejected' }, scenario, 'expect_by_profile', { profile: 'opencode' }).status,
      ).toBe('passed');
      expect(filesToRead(scenario, 'expect_by_profile', 'opencode')).toEqual(['opencode.txt']);
      expect(filesToRead(scenario, 'expect', 'opencode')).toEqual([]);
      // the false entry of dexto's list fails its trials, said where it is
      const dexto = judgeTrial(base, scenario, 'expect_by_profile', { profile: 'dexto' });
      expect([dexto.status, dexto.failed.map((f) => f.detail)]).toEqual(['failed', ['t.yaml:14: cannot pass as written']]);
      // a profile without a list of its own has nothing there to judge it: never a pass
      expect(judgeTrial(base, scenario, 'expect_by_profile', { profile: 'corvid' })).toEqual(
        expect.objectContaining({ status: 'unjudged', error: "no expectations for this trial's profile apply to this trial" }),
      );
    });
  });

  it('makes an invariant violation an error that says it is a Loupe bug', () => {
    const broken = { ...base, toolCalls: [{ id: 'a', name: 'read_file', status: 'executing' }] };
    const v = judgeTrial(broken, { expect: [{ termination: 'completed' }] }, 'scripted');
    expect(v.status).toBe('error');
    expect(v.error).toMatch(/^Loupe bug: invariant violated: tool_calls_closed/);
  });
});

describe("a trial's outcome", () => {
  it('counts pathologies by kind', () => {
    expect(pathologiesOf(base, 2)).toEqual({
      'repair.tool_name_repaired': 1,
      'nudge.tooShort': 1,
      'nudge.promisedAction': 1,
      nudges_exhausted: 1,
      invariant_violation: 2,
    });
  });

  it('sums tokens and the latency split over model calls', () => {
    expect(tokensOf(base)).toEqual({ input: 250, output: 30 });
    expect(latencyOf(base)).toEqual({
      slotWaitMs: 40,
      loadMs: 500,
      serverQueueMs: 5,
      prefillMs: 110,
      decodeMs: 120,
      firstTokenMs: 30,
      workingMs: 900,
    });
  });
});
