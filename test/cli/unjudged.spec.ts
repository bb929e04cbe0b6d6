// A trial no check applies to is unjudged, never passed (issue 36): a scenario with expectations for
// its own profile and no success criteria, run under another profile, is said before the run, reported
// unjudged in --json, skipped with the reason in JUnit, and fails the run unless --allow-unjudged;
// --allow-unjudged beside --baseline is refused, since a gate must not pass on trials that checked nothing.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { childrenNamed, parseXml, propertiesOf } from '../../src/eval/reports/xml.test-kit';
import { createTestDatabase } from '../support/test-app';
import { runCli } from '../support/run-cli';

const NO_SUCCESS = `id: t/no-success
profile: loupe
prompt: Say done.
script:
  - content: Done.
expect:
  - termination: completed
`;

const WITH_SUCCESS = `id: t/with-success
profile: loupe
prompt: Say done.
script:
  - content: Done.
expect:
  - termination: completed
success:
  - final_answer: { contains: Done }
`;

interface JsonTrial {
  scenarioId: string;
  profile: string;
  judgedBy: string;
  status: string;
  passed: boolean;
  unjudgedReason: string | null;
}

describe('unjudged trials (built CLI)', () => {
  let tmp: string;
  let env: Record<string, string>;
  let noSuccess: string;
  let withSuccess: string;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-unjudged-'));
    env = { DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, 'home') };
    noSuccess = path.join(tmp, 'no-success.yaml');
    withSuccess = path.join(tmp, 'with-success.yaml');
    fs.writeFileSync(noSuccess, NO_SUCCESS);
    fs.writeFileSync(withSuccess, WITH_SUCCESS);
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('reports a scenario run under a profile it was not written for, without success criteria, as unjudged and fails the run', async () => {
    const junit = path.join(tmp, 'junit.xml');
    const run = await runCli(['eval', noSuccess, withSuccess, '--set', 'profile=opencode', '-t', '2', '--json', '--junit', junit], env, {
      timeoutMs: 120_000,
    });
    // said before the run starts, naming the file, the scenario and the profile
    const warning = `loupe: ${noSuccess}: scenario t/no-success has no success criteria for profile opencode: its trials will be unjudged`;
    expect(run.stderr).toContain(warning);
    expect(run.stderr.indexOf(warning)).toBeLessThan(run.stderr.search(/^run [0-9a-f-]{36} /m));
    expect(run.stderr).not.toContain('scenario t/with-success has no');
    expect(run.code).toBe(1);

    const report = JSON.parse(run.stdout);
    const trials = report.trials as JsonTrial[];
    expect(
      trials.filter((t) => t.scenarioId === 't/no-success').map((t) => [t.profile, t.judgedBy, t.status, t.passed, t.unjudgedReason]),
    ).toEqual([
      ['opencode', 'success', 'unjudged', false, 'no success criteria apply to this trial'],
      ['opencode', 'success', 'unjudged', false, 'no success criteria apply to this trial'],
    ]);
    expect(trials.filter((t) => t.scenarioId === 't/with-success').map((t) => t.status)).toEqual(['passed', 'passed']);
    expect(report.summary).toEqual({ passed: 2, failed: 0, unjudged: 2, errored: 0, notRun: 0, trials: 4 });
    // the pass rate is over judged trials only; the unjudged cell rests on no trial for pass^k
    expect(report.statistics.run).toMatchObject({ passed: 2, failed: 0, unjudged: 2, passRate: { successes: 2, n: 2 } });
    expect(report.statistics.run.passHatKDetail['2']).toMatchObject({ value: 1, cells: 1, cellsTooFew: 1 });

    const root = parseXml(fs.readFileSync(junit, 'utf8'));
    expect(root.attributes).toMatchObject({ tests: '2', failures: '0', errors: '0', skipped: '1' });
    const cases = childrenNamed(childrenNamed(root, 'testsuite')[0], 'testcase');
    const unjudged = cases.find((c) => c.attributes.classname === 't/no-success')!;
    expect(childrenNamed(unjudged, 'skipped')[0].attributes.message).toBe(
      '2 of 2 trials unjudged: no success criteria apply to this trial',
    );
    expect(propertiesOf(unjudged)).toContainEqual(['unjudged', '2']);
    expect(
      childrenNamed(
        cases.find((c) => c.attributes.classname === 't/with-success')!,
        'skipped',
      ),
    ).toEqual([]);

    // stored apart too: what the admin API and the dashboards read
    const db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    try {
      const runs = await db.query(`SELECT passed, failed, unjudged, errored FROM eval_runs WHERE id = $1`, [report.runId]);
      expect(runs.rows).toEqual([{ passed: 2, failed: 0, unjudged: 2, errored: 0 }]);
      const cells = await db.query(`SELECT scenario_id, passed, unjudged FROM eval_cells WHERE run_id = $1 ORDER BY scenario_id`, [
        report.runId,
      ]);
      expect(cells.rows).toEqual([
        { scenario_id: 't/no-success', passed: 0, unjudged: 2 },
        { scenario_id: 't/with-success', passed: 2, unjudged: 0 },
      ]);
    } finally {
      await db.end();
    }
  }, 180_000);

  it('prints unjudged trials apart in the table and exits 0 with --allow-unjudged', async () => {
    const run = await runCli(['eval', noSuccess, '--set', 'profile=opencode', '--allow-unjudged'], env, { timeoutMs: 120_000 });
    expect(run.stderr).toContain('scenario t/no-success has no success criteria for profile opencode');
    expect(run.stdout).toMatch(/^t\/no-success\s+\S+\s+UNJUDGED\s/m);
    expect(run.stdout).toContain('UNJUDGED t/no-success');
    expect(run.stdout).toMatch(/^0 passed, 0 failed, 1 unjudged, 0 errors/m);
    expect(run.code).toBe(0);
  }, 180_000);

  it('refuses --allow-unjudged with --baseline as bad input (exit 2)', async () => {
    const run = await runCli(['eval', noSuccess, '--allow-unjudged', '--baseline', '00000000-0000-4000-8000-000000000000'], env);
    expect(run.stderr).toContain('--allow-unjudged with --baseline');
    expect(run.code).toBe(2);
  });
});
