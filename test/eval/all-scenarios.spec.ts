// Every scenario in scenarios/ is a test: it must pass on the stand-in through the real stack.
import * as path from 'node:path';
import { ScenarioRunner } from '../../src/eval/scenario-runner.service';
import { loadScenarios } from '../../src/eval/scenario/scenario-loader';
import { standinShortfalls } from '../../src/eval/standin-model-check';
import type { TrialReport } from '../../src/eval/eval-types';
import { createTestApp, type TestApp } from '../support/test-app';

const ROOT = path.join(__dirname, '..', '..');
const scenarios = loadScenarios(['scenarios'], ROOT);

describe('scenarios/ on the stand-in', () => {
  let t: TestApp;
  let reports: Map<string, TrialReport>;
  beforeAll(async () => {
    // spec delays (1 s retry backoff) are kept: scenarios assert them
    t = await createTestApp({ LOUPE_RETRY_DELAY_SCALE: '1' });
    // the trials mostly wait (retry backoffs at full scale, timeouts, MCP servers starting): several at once
    const report = await t.app.get(ScenarioRunner).run(scenarios, { concurrency: 8 });
    reports = new Map(report.trials.map((r) => [r.scenarioId, r]));
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  it('found the suite', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(38);
  });

  it("names the spec and title of every bundled scenario, scripts it and names a stand-in model (optional for a user's own)", () => {
    expect(scenarios.filter((s) => !s.spec || s.title === s.id).map((s) => s.id)).toEqual([]);
    expect(standinShortfalls(scenarios).map((s) => `${s.scenario.id}: ${s.why}`)).toEqual([]);
  });

  it.each(scenarios.map((s) => [s.id, s.file]))('%s (%s)', (id) => {
    const r = reports.get(id)!;
    expect({ id, status: r.status, error: r.error, failed: r.failedExpectations }).toEqual({
      id,
      status: 'passed',
      error: undefined,
      failed: [],
    });
  });
});
