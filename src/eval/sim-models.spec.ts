import { parseScenario } from './scenario/scenario-parser';
import type { Scenario } from './scenario/scenario';
import { configurations } from './run-plan';
import { judgedAs } from './trials/trial-verdict';
import { unjudgedPlan } from './unjudged-plan';
import { isSimModel, isSimRun, personaNameOf, planFromScript, planOf, simModelOf, simRunProblems } from './sim-models';
import type { Persona } from '../sim/sim-types';
import { runMode } from '../live/run-wire';
import type { EvalRunRow } from '../journal/journal-entry';
import { planRun, resumePlan } from './run-resume';

function scenario(file: string, yaml: string): Scenario {
  const r = parseScenario(yaml, file);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.scenario;
}

const scripted = scenario(
  's/scripted.yaml',
  [
    'id: t/scripted',
    'prompt: Copy a.txt to b.txt.',
    'script:',
    '  - content: Let me look.',
    '    tool_calls: [{ name: read_file, arguments: { path: a.txt } }]',
    '  - tool_calls: [{ name: write_file, arguments: { path: b.txt, content: hi } }, { name: list_files }]',
    '  - content: Copied.',
    'expect:',
    '  - termination: completed',
  ].join('\n'),
);
const solved = scenario(
  's/solved.yaml',
  [
    'id: t/solved',
    'prompt: What does a.txt say?',
    'solution:',
    '  calls:',
    '    - { name: read_file, arguments: { path: a.txt } }',
    '  final_answer: It says hi.',
    'success:',
    '  - final_answer: { contains: hi }',
  ].join('\n'),
);
const nothing = scenario('s/nothing.yaml', 'id: t/nothing\nprompt: Hi.\nsuccess:\n  - termination: completed\n');

describe('simulated models in a run', () => {
  it('names simulated models by their sim: prefix', () => {
    expect(['sim:repetitive', 'SIM:x', 'sim:', 'llama3.1:8b', 'simple:1b'].map(isSimModel)).toEqual([true, true, false, false, false]);
    expect(personaNameOf('sim:sloppy-qwen3')).toBe('sloppy-qwen3');
    expect([isSimRun(['sim:a', 'sim:b']), isSimRun(['sim:a', 'qwen3:8b']), isSimRun([])]).toEqual([true, false, false]);
  });

  it('reads the plan from a script: its calls in order, its last content-only turn as the answer', () => {
    expect(planOf(scripted)).toEqual({
      steps: [
        { name: 'read_file', arguments: { path: 'a.txt' } },
        { name: 'write_file', arguments: { path: 'b.txt', content: 'hi' } },
        { name: 'list_files', arguments: {} },
      ],
      finalAnswer: 'Copied.',
    });
    expect(planFromScript({ turns: {} })).toBeUndefined();
  });

  it('prefers `solution:`; a solution without a script is what a scripted run replays', () => {
    expect(planOf(solved)).toEqual({ steps: [{ name: 'read_file', arguments: { path: 'a.txt' } }], finalAnswer: 'It says hi.' });
    expect(solved.script.turns['*']).toEqual([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { content: 'It says hi.' },
    ]);
    expect(planOf(nothing)).toBeUndefined();
  });

  it('refuses a scenario with nothing to follow, a mixed run and a real Ollama, naming each', () => {
    expect(simRunProblems([scripted, solved], ['sim:diligent'])).toEqual([]);
    expect(simRunProblems([scripted, nothing], ['sim:diligent'])).toEqual([
      's/nothing.yaml: scenario t/nothing has no solution to follow: give it a `solution:` (tool calls and final_answer) or a script to run it under a persona',
    ]);
    expect(simRunProblems([nothing], ['llama3.1:8b'])).toEqual([]);
    expect(simRunProblems([scripted], ['sim:diligent', 'llama3.1:8b'])[0]).toMatch(/cannot share a run with others \(llama3\.1:8b\)/);
    expect(simRunProblems([scripted], ['sim:diligent'], 'http://gpu:11434')[0]).toMatch(/unset OLLAMA_HOST/);
  });

  it('judges persona trials by their success criteria, never by the exact expectations', () => {
    const job = { scenario: scripted, config: configurations([])[0] };
    expect([judgedAs(job, 'scripted'), judgedAs(job, 'sim'), judgedAs(job, 'sim', 'auto')]).toEqual(['expect', 'success', 'success']);
    // its success criteria are absent: unjudged, said before the run
    expect(unjudgedPlan([scripted, solved], configurations([]), 'sim').map((p) => p.scenario.id)).toEqual(['t/scripted']);
  });

  it("gives a trial's stand-in the persona and the scenario's plan", () => {
    const persona = { name: 'x' } as Persona;
    expect(simModelOf({ model: 'llama3.1:8b', scenario: solved }, {})).toBeUndefined();
    expect(simModelOf({ model: 'sim:x', scenario: solved }, { 'sim:x': persona })).toEqual({
      model: 'sim:x',
      persona,
      plan: planOf(solved),
    });
    expect(() => simModelOf({ model: 'sim:x', scenario: solved }, {})).toThrow(/persona was not read/);
  });
});

describe('the mode of a persona run', () => {
  it('is sim in the runs list and the API, never scripted', () => {
    expect(runMode({ mode: 'sim' }, { backend: 'standin' })).toBe('sim');
    expect(runMode({ mode: 'scripted' }, { backend: 'standin' })).toBe('scripted');
    expect(runMode({ mode: 'live' }, { backend: 'standin' })).toBe('simulated');
  });
});

describe('the personas of a run', () => {
  it('are stored with it, so a resume (or a worker) serves the personas the run started with', () => {
    const persona = { name: 'x', behaviour: { base: { promise: 0.3 } } } as unknown as Persona;
    const plan = planRun(
      [solved],
      { models: ['sim:x'], trials: 2, personas: { 'sim:x': persona } },
      {
        mode: 'sim',
        backend: 'standin',
        loupeRevision: 'rev',
      },
    );
    expect(plan.mode).toBe('sim');
    const row = { id: 'r', status: 'interrupted', startedAt: new Date(0), finishedAt: null, ...plan.run } as unknown as EvalRunRow;
    const resumed = resumePlan(row, [], [solved]);
    expect([resumed.plan.mode, resumed.options.personas, resumed.todo.length]).toEqual(['sim', { 'sim:x': persona }, 2]);
  });
});
