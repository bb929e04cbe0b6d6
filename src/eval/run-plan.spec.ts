import { configurations, parseAxes, planJobs, profileOf } from './run-plan';
import type { Scenario } from './scenario/scenario';

describe('the run plan', () => {
  it('parses --set axes, values typed as the config key wants them', () => {
    expect(parseAxes(['max_tool_iterations=10,25', 'tool_execution=parallel,sequential'])).toEqual({
      axes: [
        { key: 'max_tool_iterations', values: [10, 25] },
        { key: 'tool_execution', values: ['parallel', 'sequential'] },
      ],
      problems: [],
    });
  });

  it.each([
    ['max_tool_iteration=10', /unknown configuration key "max_tool_iteration"; did you mean "max_tool_iterations"\?/],
    ['max_tool_iterations=zero', /--set max_tool_iterations=zero:/],
    ['num_ctx=12', /--set num_ctx=12:/],
    ['tool_execution=sometimes', /--set tool_execution=sometimes/],
    ['repeat_threshold', /expected key=value/],
  ])('names a bad axis: %s', (set, message) => {
    expect(parseAxes([set]).problems.join('\n')).toMatch(message);
  });

  it('crosses the axes into configurations with canonical keys', () => {
    const { axes } = parseAxes(['max_tool_iterations=10,25', 'doom_loop=break,ask']);
    expect(configurations(axes).map((c) => c.key)).toEqual([
      'max_tool_iterations=10,doom_loop=break',
      'max_tool_iterations=10,doom_loop=ask',
      'max_tool_iterations=25,doom_loop=break',
      'max_tool_iterations=25,doom_loop=ask',
    ]);
    expect(configurations([])).toEqual([{ key: '', overrides: {} }]);
  });

  it('groups jobs by model so each model is loaded once', () => {
    const s = (id: string, model?: string) => ({ id, model, profiles: ['loupe'] }) as unknown as Scenario;
    const jobs = planJobs([s('a'), s('b', 'qwen3:8b'), s('c')], { configs: configurations([]), trials: 2 });
    expect(jobs.map((j) => `${j.model}/${j.scenario.id}#${j.trial}`)).toEqual([
      'llama3.1:8b/a#1',
      'llama3.1:8b/a#2',
      'llama3.1:8b/c#1',
      'llama3.1:8b/c#2',
      'qwen3:8b/b#1',
      'qwen3:8b/b#2',
    ]);
    const crossed = planJobs([s('a'), s('b')], { models: ['m1', 'm2'], configs: configurations([]), trials: 1 });
    expect(crossed.map((j) => `${j.model}/${j.scenario.id}`)).toEqual(['m1/a', 'm1/b', 'm2/a', 'm2/b']);
  });

  it('runs a scenario under each profile it names, unless the run varies the profile itself', () => {
    const s = (id: string, profiles: string[]) => ({ id, profiles }) as unknown as Scenario;
    const own = planJobs([s('a', ['corvid', 'loupe']), s('b', ['opencode'])], { configs: configurations([]), trials: 1 });
    expect(own.map((j) => `${j.scenario.id} [${j.config.key}] ${profileOf(j)}`)).toEqual([
      'a [profile=corvid] corvid',
      'a [profile=loupe] loupe',
      'b [] opencode',
    ]);
    const { axes } = parseAxes(['profile=dexto,gemini-cli']);
    const varied = planJobs([s('a', ['corvid', 'loupe'])], { configs: configurations(axes), trials: 1 });
    expect(varied.map((j) => `${j.config.key} ${profileOf(j)}`)).toEqual(['profile=dexto dexto', 'profile=gemini-cli gemini-cli']);
  });

  it('names an unknown profile with the closest one', () => {
    expect(parseAxes(['profile=corvid,gemini']).problems.join('\n')).toMatch(/--set profile=gemini:/);
  });
});
