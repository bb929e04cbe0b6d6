// Every bundled scenario under every loop profile, on the stand-in through the real stack: each trial
// is judged by a list that applies to it (`expect` under the profiles it was written for, its
// `expect_by_profile` list or `success` under the others) and passes. Invariants alone judge nothing,
// so an unjudged trial fails here as surely as a failed one.
import * as path from 'node:path';
import { ScenarioRunner } from '../../src/eval/scenario-runner.service';
import { loadScenarios } from '../../src/eval/scenario/scenario-loader';
import { configurations, parseAxes } from '../../src/eval/run-plan';
import { LOOP_PROFILE_NAMES } from '../../src/process/policies/loop-settings';
import type { TrialReport } from '../../src/eval/eval-types';
import { createTestApp, type TestApp } from '../support/test-app';

const ROOT = path.join(__dirname, '..', '..');
const scenarios = loadScenarios(['scenarios'], ROOT);
const cells = scenarios.flatMap((s) => LOOP_PROFILE_NAMES.map((profile) => [s.id, profile] as const));
/**
 * The trials mostly wait (retry backoffs at full scale, tool and approval timeouts, MCP servers
 * starting): the whole run took 29 s of CPU in 170 s at 3 at once, so more at once shortens it.
 */
const TRIALS_AT_ONCE = 8;

describe('scenarios/ under every loop profile, on the stand-in', () => {
  let t: TestApp;
  const reports = new Map<string, TrialReport[]>();
  beforeAll(async () => {
    // spec delays (1 s retry backoff) are kept: scenarios assert them
    t = await createTestApp({ LOUPE_RETRY_DELAY_SCALE: '1' });
    const { axes, problems } = parseAxes([`profile=${LOOP_PROFILE_NAMES.join(',')}`]);
    if (problems.length) throw new Error(problems.join('; '));
    const report = await t.app.get(ScenarioRunner).run(scenarios, { configurations: configurations(axes), concurrency: TRIALS_AT_ONCE });
    for (const r of report.trials) {
      const key = `${r.scenarioId} @ ${r.profile}`;
      reports.set(key, [...(reports.get(key) ?? []), r]);
    }
  }, 900_000);
  afterAll(async () => {
    await t?.close();
  });

  it('ran every scenario under every profile', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(89);
    expect(cells.filter(([id, profile]) => !reports.has(`${id} @ ${profile}`))).toEqual([]);
  });

  it.each(cells)('%s under %s', (id, profile) => {
    const scenario = scenarios.find((s) => s.id === id)!;
    // one with `success` alone (scenarios/tasks) is judged by it under every profile
    const native = scenario.profiles.includes(profile) && scenario.expect.length > 0;
    for (const r of reports.get(`${id} @ ${profile}`) ?? []) {
      expect({ id, profile, model: r.model, status: r.status, error: r.error, failed: r.failedExpectations }).toEqual({
        id,
        profile,
        model: r.model,
        status: 'passed',
        error: undefined,
        failed: [],
      });
      // the profiles it was written for judge it by `expect`; no other does
      expect(r.judgedBy === 'expect').toBe(native);
    }
  });
});
