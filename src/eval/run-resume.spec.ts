import type { EvalRunRow } from '../journal/journal-entry';
import { planRun, resumePlan, ResumeError } from './run-resume';
import type { Scenario } from './scenario/scenario';

const scenario = (id: string, hash = `h-${id}`) =>
  ({
    id,
    hash,
    title: id,
    file: `${id}.yaml`,
    spec: 't',
    profiles: ['loupe'],
    model: 'm:1',
    expect: [{ termination: 'completed' }],
  }) as unknown as Scenario;

function storedRun(scenarios: Scenario[], trials: number): EvalRunRow {
  const plan = planRun(scenarios, { trials, concurrency: 2 }, { mode: 'scripted', backend: 'standin', loupeRevision: 'rev' });
  return {
    id: 'run-1',
    status: 'interrupted',
    startedAt: new Date(0),
    finishedAt: null,
    trialCount: 0,
    passed: 0,
    failed: 0,
    errored: 0,
    ownerPid: 1,
    ownerHost: 'h',
    statistics: null,
    ...plan.run,
  } as EvalRunRow;
}

let n = 0;
function row(scenarioId: string, trialIndex: number, status: string, attempt = 1) {
  return {
    id: `t${++n}`,
    scenarioId,
    scenarioHash: `h-${scenarioId}`,
    model: 'm:1',
    configKey: '',
    trialIndex,
    status,
    attempt,
    iterations: 1,
    outcome: null,
    sessionId: null,
    expectations: [],
    failedExpectations: [],
    invariantViolations: [],
    eventCount: 3,
    durationMs: 10,
    error: null,
  };
}

describe('resuming a run', () => {
  const scenarios = [scenario('a'), scenario('b')];
  const run = storedRun(scenarios, 2);

  it('keeps trials with a verdict, reruns interrupted ones as the next attempt replacing the last, runs the rest', () => {
    const rows = [
      row('a', 1, 'passed'),
      row('a', 2, 'failed'),
      row('b', 1, 'interrupted'),
      row('b', 1, 'interrupted', 2), // a resume that was itself killed
    ];
    const plan = resumePlan(run, rows, scenarios);
    expect(plan.kept.map((k) => [k.index, k.result.report.trialId, k.result.outcome.status])).toEqual([
      [0, rows[0].id, 'passed'],
      [1, rows[1].id, 'failed'],
    ]);
    expect(plan.todo.map((t) => [t.index, t.job.scenario.id, t.job.trial, t.ids?.attempt, t.replaces])).toEqual([
      [2, 'b', 1, 3, rows[3].id],
      [3, 'b', 2, 1, undefined],
    ]);
    expect(new Set(plan.todo.map((t) => t.ids!.trialId)).size).toBe(2);
    expect(plan.options).toEqual(expect.objectContaining({ trials: 2, concurrency: 2, judge: 'auto' }));
  });

  it('takes a verdict over a later interrupted attempt (the job is done)', () => {
    const rows = [row('a', 1, 'error'), row('a', 1, 'interrupted', 2)];
    const plan = resumePlan(run, rows, scenarios);
    expect(plan.kept.map((k) => k.index)).toEqual([0]);
    expect(plan.todo.map((t) => t.index)).toEqual([1, 2, 3]);
  });

  it('refuses scenarios that are missing or changed since the run started', () => {
    expect(() => resumePlan(run, [], [scenario('a')])).toThrow(
      new ResumeError("run run-1: scenario(s) not found: b (give the paths of the run's scenarios)"),
    );
    expect(() => resumePlan(run, [row('b', 1, 'passed')], [scenario('a'), scenario('b', 'other')])).toThrow(
      /scenario\(s\) changed since the run started: b/,
    );
  });
});
