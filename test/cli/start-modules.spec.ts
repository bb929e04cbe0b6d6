// What an eval loads before its first trial (the built code): the queue's pg-boss and the
// statistics' @stdlib modules load when first used, not at every start (they were 1,200 of 6,700
// module loads, about a tenth of the start's CPU).
import { spawnSync } from 'node:child_process';
import { ROOT } from '../support/run-cli';

const LOAD_EVAL_PATH = `
require('./dist/src/cli/app-context');
require('./dist/src/eval/scenario-runner.service');
process.stdout.write(JSON.stringify(Object.keys(require.cache)));
`;

describe("an eval's start (built code)", () => {
  it('does not load pg-boss or the statistics packages', () => {
    const child = spawnSync(process.execPath, ['-e', LOAD_EVAL_PATH], { cwd: ROOT, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const loaded = JSON.parse(child.stdout) as string[];
    // the path it loads is the real one: the runner and the database layer are there
    expect(loaded.some((f) => f.endsWith('/dist/src/eval/scenario-runner.service.js'))).toBe(true);
    expect(loaded.some((f) => f.includes('/node_modules/typeorm/'))).toBe(true);
    const packages = [...new Set(loaded.flatMap((f) => f.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1] ?? []))];
    expect(packages.filter((p) => p === 'pg-boss' || p.startsWith('@stdlib/'))).toEqual([]);
  });
});
