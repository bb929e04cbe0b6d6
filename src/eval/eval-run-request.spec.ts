import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
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

  it('refuses, by name, a path that leads out of the directory through a symbolic link', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-paths-'));
    try {
      const root = path.join(tmp, 'scenarios');
      fs.mkdirSync(path.join(tmp, 'outside'));
      fs.mkdirSync(path.join(root, 'suite'), { recursive: true });
      fs.symlinkSync(path.join(tmp, 'outside'), path.join(root, 'escape'));
      fs.symlinkSync(path.join(root, 'suite'), path.join(root, 'alias'));
      const { paths, errors } = scenarioPaths(['escape', 'escape/x.yaml', 'alias', 'suite'], root);
      expect(paths).toEqual(['alias', 'suite']);
      expect(errors).toEqual([
        { field: 'scenarios.0', message: '"escape" resolves through a symbolic link to a path outside the scenarios directory' },
        { field: 'scenarios.1', message: '"escape/x.yaml" resolves through a symbolic link to a path outside the scenarios directory' },
      ]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
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
