import { problemAsFieldError, runConfigurations, scenarioPaths } from './eval-run-request';

describe('eval run requests', () => {
  it('keeps scenario paths inside the scenarios directory, naming each one that leaves it', () => {
    expect(scenarioPaths(['approval', 'approval/queued-approvals.yaml', '.', './loop-control/'], '/srv/scenarios')).toEqual({
      paths: ['approval', 'approval/queued-approvals.yaml', '.', 'loop-control'],
      errors: [],
    });
    const { paths, errors } = scenarioPaths(['../secrets', '/etc', 'a/../../b', 'ok'], '/srv/scenarios');
    expect(paths).toEqual(['ok']);
    expect(errors.map((e) => e.field)).toEqual(['scenarios.0', 'scenarios.1', 'scenarios.2']);
    expect(errors[0].message).toMatch(/leaves the workspace|leaves the scenarios directory/);
    expect(errors[1].message).toMatch(/absolute/);
  });

  it('reads configuration axes as --set does, and reports bad ones under `set`', () => {
    expect(runConfigurations(['profile=loupe,corvid']).configurations.map((c) => c.key)).toEqual(['profile=loupe', 'profile=corvid']);
    expect(runConfigurations().configurations).toEqual([{ key: '', overrides: {} }]);
    const bad = runConfigurations(['max_tool_iteration=3', 'max_tool_iterations=0']).errors;
    expect(bad).toEqual([
      {
        field: 'set',
        message: expect.stringMatching(/max_tool_iteration=3: unknown configuration key .*did you mean "max_tool_iterations"/),
      },
      { field: 'set', message: expect.stringMatching(/^max_tool_iterations=0: /) },
    ]);
  });

  it('locates a scenario problem by file, line and field', () => {
    expect(problemAsFieldError({ file: 'a.yaml', line: 3, column: 5, field: 'script[0].content', message: 'expected string' })).toEqual({
      field: 'scenarios',
      message: 'a.yaml:3:5: script[0].content: expected string',
    });
    expect(problemAsFieldError({ file: 'a.yaml', line: 0, column: 0, field: '--model', message: 'the stand-in has no model "x"' })).toEqual(
      {
        field: 'models',
        message: 'a.yaml: the stand-in has no model "x"',
      },
    );
  });
});
