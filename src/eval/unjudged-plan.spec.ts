import { recordedEvents } from './expectations/recorded-events.test-kit';
import type { RecordedSession } from './expectations/recorded-session';
import { configurations, parseAxes, profileOf } from './run-plan';
import { parseScenario } from './scenario/scenario-parser';
import type { Scenario } from './scenario/scenario';
import { judgedAs, judgeTrial, type TrialMode } from './trials/trial-verdict';
import { unjudgedPlan, unjudgedWarning } from './unjudged-plan';

function scenario(file: string, yaml: string): Scenario {
  const r = parseScenario(yaml, file);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.scenario;
}

// a session that breaks no invariant: what judging it says depends on the list alone
const clean: RecordedSession = {
  terminationReason: 'completed',
  iterations: 1,
  toolCallCount: 0,
  finalAnswer: 'Done.',
  hostEvents: [],
  messages: [],
  files: {},
  requests: null,
  toolCalls: [],
  events: recordedEvents([
    { type: 'session_started', payload: { settings: { maxToolIterations: 25, numCtx: 8192 } } },
    { type: 'slot_acquired', payload: { waitMs: 0 } },
    { type: 'slot_released', payload: {} },
    { type: 'session_finished', payload: { workingMs: 1 } },
  ]),
  iterationRows: [],
};

const expectOnly = scenario(
  's/expect-only.yaml',
  'id: t/expect-only\nprompt: Say done.\nscript: [{ content: Done. }]\nexpect:\n  - termination: completed\n',
);
const both = scenario(
  's/both.yaml',
  'id: t/both\nprompt: Say done.\nscript: [{ content: Done. }]\nexpect:\n  - termination: completed\nsuccess:\n  - final_answer: { contains: Done }\n',
);
const successOnly = scenario(
  's/success-only.yaml',
  'id: t/success-only\nprompt: Say done.\nscript: [{ content: Done. }]\nsuccess:\n  - termination: completed\n',
);
const falseSuccess = scenario(
  's/false-success.yaml',
  'id: t/false-success\nprompt: Say done.\nscript: [{ content: Done. }]\nexpect:\n  - termination: completed\nsuccess:\n  - event: made_up_event\n',
);
const all = [expectOnly, both, successOnly, falseSuccess];

describe('unjudgedPlan', () => {
  it('names a scenario run under a profile it was not written for without success criteria, once per profile', () => {
    const configs = configurations(parseAxes(['profile=loupe,opencode', 'max_tool_iterations=5,10']).axes);
    expect(unjudgedPlan(all, configs, 'scripted').map((p) => [p.scenario.file, p.profile, p.list])).toEqual([
      ['s/expect-only.yaml', 'opencode', 'success'],
    ]);
  });

  it('names every scenario without success criteria in a live run, and none with --judge success that has them', () => {
    const configs = configurations([]);
    expect(unjudgedPlan(all, configs, 'live').map((p) => p.scenario.id)).toEqual(['t/expect-only']);
    expect(unjudgedPlan(all, configs, 'scripted', 'success').map((p) => p.scenario.id)).toEqual(['t/expect-only']);
    expect(unjudgedPlan(all, configs, 'scripted')).toEqual([]);
  });

  it('says which file, scenario, list and profile', () => {
    const [p] = unjudgedPlan([expectOnly], configurations(parseAxes(['profile=opencode']).axes), 'scripted');
    expect(unjudgedWarning(p)).toBe(
      'loupe: s/expect-only.yaml: scenario t/expect-only has no success criteria for profile opencode: its trials will be unjudged',
    );
  });

  // the warning and the verdict choose the list the same way: for every job, the plan names it
  // exactly when judging a clean session by that list leaves the trial unjudged
  it.each<[TrialMode, 'auto' | 'success']>([
    ['scripted', 'auto'],
    ['scripted', 'success'],
    ['live', 'auto'],
    ['sim', 'auto'],
  ])('agrees with judgeTrial on every job (%s, --judge %s)', (mode, judge) => {
    const configs = configurations(parseAxes(['profile=loupe,opencode,corvid']).axes);
    const planned = new Set(unjudgedPlan(all, configs, mode, judge).map((p) => `${p.scenario.id} ${p.profile}`));
    for (const s of all)
      for (const config of configs) {
        const job = { scenario: s, config };
        const verdict = judgeTrial(clean, s, judgedAs(job, mode, judge), { profile: profileOf(job) });
        expect([`${s.id} ${profileOf(job)}`, verdict.status === 'unjudged']).toEqual([
          `${s.id} ${profileOf(job)}`,
          planned.has(`${s.id} ${profileOf(job)}`),
        ]);
      }
  });
});
