import { parseScenario } from './scenario/scenario-parser';
import type { Scenario } from './scenario/scenario';
import { standinModelProblems, standinShortfalls } from './standin-model-check';

function scenario(yaml: string): Scenario {
  const r = parseScenario(
    `id: s\ntitle: t\nspec: x\nprompt: p\n${yaml}script:\n  - content: hi\nexpect:\n  - termination: completed\n`,
    'scenarios/s.yaml',
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.scenario;
}

describe('standinModelProblems: requested models the stand-in lacks are bad input', () => {
  it("checks --model against each scenario's stand-in catalog (the default one, added models)", () => {
    expect(standinModelProblems([scenario('')], ['qwen3:8b'])).toEqual([]);
    expect(
      standinModelProblems(
        [scenario('catalog:\n  - { name: "mine:3b", family: llama, parameter_size: 3B, capabilities: [completion] }\n')],
        ['mine:3b'],
      ),
    ).toEqual([]);
    const [p] = standinModelProblems([scenario('')], ['nope:1b']);
    expect(p).toEqual(expect.objectContaining({ field: '--model', message: expect.stringMatching(/no model "nope:1b".*llama3\.1:8b/) }));
  });

  it("leaves a scenario's own model to standinShortfalls", () => {
    expect(standinModelProblems([scenario('model: llama9:70b\n')])).toEqual([]);
  });
});

describe('standinShortfalls: valid scenarios whose trials can only fail on the stand-in', () => {
  it('accepts the default model, catalog models, added models and local-stand-in models', () => {
    expect(standinShortfalls([scenario('')])).toEqual([]);
    expect(standinShortfalls([scenario('model: qwen3:8b\n')])).toEqual([]);
    expect(
      standinShortfalls([
        scenario('model: mine:3b\ncatalog:\n  - { name: "mine:3b", family: llama, parameter_size: 3B, capabilities: [completion] }\n'),
      ]),
    ).toEqual([]);
    expect(
      standinShortfalls([
        scenario(
          'model: c:1b-cloud\nollama:\n  local_standin:\n    catalog:\n      - { name: "c:1b-cloud", family: x, parameter_size: 1B, capabilities: [completion], cloud: true }\n',
        ),
      ]),
    ).toEqual([]);
  });

  it('names the line of a model the stand-in does not serve, and the models it does', () => {
    const [w] = standinShortfalls([scenario('model: llama9:70b\n')]);
    expect(w.line).toBe(5);
    expect(w.why).toMatch(/names model "llama9:70b", which the stand-in does not serve \(known: llama3\.1:8b/);
  });

  it('lets --model replace the scenario model, and respects default_catalog: false', () => {
    expect(standinShortfalls([scenario('model: llama9:70b\n')], ['qwen3:8b'])).toEqual([]);
    expect(standinShortfalls([scenario('default_catalog: false\n')])).toHaveLength(1);
  });

  it('reports a scenario without a script', () => {
    const r = parseScenario('id: u\nprompt: p\nexpect:\n  - termination: completed\n', 'u.yaml');
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(standinShortfalls([r.scenario]).map((w) => w.why)).toEqual(['has no script: the stand-in has nothing to reply']);
  });
});
