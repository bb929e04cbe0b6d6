import type { Scenario } from '../eval/scenario/scenario';
import { parseScenario } from '../eval/scenario/scenario-parser';
import { unknownModelMessage } from './unknown-model';

function scenario(file: string, extra = ''): Scenario {
  const r = parseScenario(
    `id: s\ntitle: t\nspec: x\nprompt: p\n${extra}script:\n  - content: hi\nexpect:\n  - termination: completed\n`,
    `${file}.yaml`,
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.scenario;
}

describe('unknownModelMessage: one error per model asked for', () => {
  const many = Array.from({ length: 40 }, (_, i) => scenario(`s${i}`));

  it('is undefined when every scenario serves the models', () => {
    expect(unknownModelMessage(many, ['qwen3:8b', 'llama3.1:8b:latest'])).toBeUndefined();
    expect(unknownModelMessage(many, undefined)).toBeUndefined();
  });

  it('says it once for 40 scenarios, with the closest served name and no :0:0', () => {
    const text = unknownModelMessage(many, ['qwen3:8', 'unknown'])!;
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^-m qwen3:8: the Ollama stand-in serves no model "qwen3:8"; did you mean "qwen3:8b"\? \(it serves: .*llama3\.1:8b/,
    );
    expect(lines[1]).toMatch(/^-m unknown: the Ollama stand-in serves no model "unknown" \(it serves: /);
    expect(lines[2]).toMatch(/^nothing was run/);
    expect(text).not.toMatch(/:0:0/);
  });

  it('names the scenarios that lack a model only some serve', () => {
    const own = scenario('own', 'catalog:\n  - { name: "custom:1b", family: llama, parameter_size: 1B, capabilities: [completion] }\n');
    const text = unknownModelMessage([own, ...many.slice(0, 5)], ['custom:1b'])!;
    expect(text.split('\n')[0]).toBe(
      '-m custom:1b: the stand-ins of 5 of 6 scenarios do not serve "custom:1b" (s0.yaml, s1.yaml, s2.yaml, and 2 more)',
    );
  });
});
