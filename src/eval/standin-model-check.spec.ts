import { parseScenario } from './scenario/scenario-parser';
import type { Scenario } from './scenario/scenario';
import { standinModelProblems } from './standin-model-check';

function scenario(yaml: string): Scenario {
  const r = parseScenario(
    `id: s\ntitle: t\nspec: x\nprompt: p\n${yaml}script:\n  - content: hi\nexpect:\n  - termination: completed\n`,
    'scenarios/s.yaml',
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.scenario;
}

describe('standinModelProblems', () => {
  it('accepts the default model, catalog models, added models and local-stand-in models', () => {
    expect(standinModelProblems([scenario('')])).toEqual([]);
    expect(standinModelProblems([scenario('model: qwen3:8b\n')])).toEqual([]);
    expect(
      standinModelProblems([
        scenario('model: mine:3b\ncatalog:\n  - { name: "mine:3b", family: llama, parameter_size: 3B, capabilities: [completion] }\n'),
      ]),
    ).toEqual([]);
    expect(
      standinModelProblems([
        scenario(
          'model: c:1b-cloud\nollama:\n  local_standin:\n    catalog:\n      - { name: "c:1b-cloud", family: x, parameter_size: 1B, capabilities: [completion], cloud: true }\n',
        ),
      ]),
    ).toEqual([]);
  });

  it('names the file, the line and the field of an unknown model', () => {
    const [p] = standinModelProblems([scenario('model: llama9:70b\n')]);
    expect(p).toEqual(
      expect.objectContaining({
        file: 'scenarios/s.yaml',
        line: 5,
        field: 'model',
        message: expect.stringMatching(/no model "llama9:70b".*llama3\.1:8b/),
      }),
    );
  });

  it('checks --model overrides instead of the scenario model', () => {
    const [p] = standinModelProblems([scenario('')], ['nope:1b']);
    expect(p).toEqual(expect.objectContaining({ field: '--model', message: expect.stringMatching(/nope:1b/) }));
  });

  it('respects default_catalog: false', () => {
    expect(standinModelProblems([scenario('default_catalog: false\n')])).toHaveLength(1);
  });
});
