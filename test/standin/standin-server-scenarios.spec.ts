// scenarios/standin-server/ (the stand-in as an Ollama server across requests) under every loop
// profile, through the real stack: each trial passes the list that judges it.
import * as path from 'node:path';
import { ScenarioRunner } from '../../src/eval/scenario-runner.service';
import { loadScenarios } from '../../src/eval/scenario/scenario-loader';
import { configurations, parseAxes } from '../../src/eval/run-plan';
import { LOOP_PROFILE_NAMES } from '../../src/process/policies/loop-settings';
import type { TrialReport } from '../../src/eval/eval-types';
import { createTestApp, type TestApp } from '../support/test-app';

const ROOT = path.join(__dirname, '..', '..');
const scenarios = loadScenarios(['scenarios/standin-server'], ROOT);
const cells = scenarios.flatMap((s) => LOOP_PROFILE_NAMES.map((profile) => [s.id, profile] as const));

describe('scenarios/standin-server under every loop profile', () => {
  let t: TestApp;
  const reports = new Map<string, TrialReport[]>();
  beforeAll(async () => {
    t = await createTestApp({ LOUPE_RETRY_DELAY_SCALE: '1' });
    const { axes, problems } = parseAxes([`profile=${LOOP_PROFILE_NAMES.join(',')}`]);
    if (problems.length) throw new Error(problems.join('; '));
    const report = await t.app.get(ScenarioRunner).run(scenarios, { configurations: configurations(axes), concurrency: 3 });
    for (const r of report.trials)
      reports.set(`${r.scenarioId} @ ${r.profile}`, [...(reports.get(`${r.scenarioId} @ ${r.profile}`) ?? []), r]);
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  it('found them', () => {
    expect(scenarios.map((s) => s.id).sort()).toEqual([
      'standin-server/cloud-disabled',
      'standin-server/cloud-quota',
      'standin-server/cloud-signed-out',
      'standin-server/eviction-at-max-loaded-models',
      'standin-server/keep-alive-expiry',
      'standin-server/memory-fault-preset',
      'standin-server/num-predict-thinking-first',
      'standin-server/reload-on-changed-options',
      'standin-server/silent-truncation',
      'standin-server/slot-waits-are-unbounded',
      'standin-server/tools-only-when-sent',
      'standin-server/version-quirk-cached-count',
    ]);
  });

  it.each(cells)('%s under %s', (id, profile) => {
    const runs = reports.get(`${id} @ ${profile}`) ?? [];
    expect(runs.length).toBeGreaterThan(0);
    for (const r of runs)
      expect({ id, profile, status: r.status, error: r.error, failed: r.failedExpectations }).toEqual({
        id,
        profile,
        status: 'passed',
        error: undefined,
        failed: [],
      });
  });
});
