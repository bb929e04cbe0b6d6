import type { EvalRunRow } from '../journal/journal-entry';
import { LiveGroupGate } from './live-group-gate';
import { firstLiveGroup, jobNumCtx, orderLiveTrials } from './live-groups';
import { trialSchedule } from './live-schedule';
import { configurations, parseAxes, planJobs } from './run-plan';
import { planRun, resumePlan } from './run-resume';
import type { Scenario } from './scenario/scenario';

const scenario = (id: string, numCtx?: number, model = 'm:1') =>
  ({
    id,
    hash: `h-${id}`,
    title: id,
    file: `${id}.yaml`,
    spec: 't',
    model,
    profiles: ['loupe'],
    loopSettings: numCtx === undefined ? {} : { numCtx },
    expect: [{ termination: 'completed' }],
  }) as unknown as Scenario;

const label = (t: { job: { model: string; scenario: { id: string }; config: { key: string }; trial: number } }) =>
  `${t.job.model}/${t.job.scenario.id}${t.job.config.key ? `[${t.job.config.key}]` : ''}#${t.job.trial}`;

const indexed = <T>(jobs: T[]) => jobs.map((job, index) => ({ index, job }));

describe("a live run's trials, grouped by (model, runner options)", () => {
  it("takes a job's num_ctx from its configuration, else its scenario, else OLLAMA_NUM_CTX, else Loupe's default", () => {
    const [axis] = configurations(parseAxes(['num_ctx=2048']).axes);
    expect(jobNumCtx({ scenario: scenario('a', 4096), config: axis })).toBe(2048);
    expect(jobNumCtx({ scenario: scenario('a', 4096), config: { key: '', overrides: {} } }, 16384)).toBe(4096);
    expect(jobNumCtx({ scenario: scenario('a'), config: { key: '', overrides: {} } }, 16384)).toBe(16384);
    expect(jobNumCtx({ scenario: scenario('a'), config: { key: '', overrides: {} } })).toBe(8192);
  });

  it('orders each (model, num_ctx) group together, groups in plan order, trials in plan order within a group', () => {
    const jobs = planJobs([scenario('a', 4096), scenario('b', 8192), scenario('c', 4096)], {
      models: ['x:1', 'y:1'],
      configs: configurations([]),
      trials: 2,
    });
    const ordered = orderLiveTrials(indexed(jobs));
    expect(ordered.map(label)).toEqual([
      'x:1/a#1',
      'x:1/a#2',
      'x:1/c#1',
      'x:1/c#2',
      'x:1/b#1',
      'x:1/b#2',
      'y:1/a#1',
      'y:1/a#2',
      'y:1/c#1',
      'y:1/c#2',
      'y:1/b#1',
      'y:1/b#2',
    ]);
    expect([...new Set(ordered.map((t) => t.group.key))]).toEqual([
      'x:1|num_ctx=4096',
      'x:1|num_ctx=8192',
      'y:1|num_ctx=4096',
      'y:1|num_ctx=8192',
    ]);
    // the boundaries: a group index changes exactly where the group does, and never goes back
    expect(ordered.map((t) => t.groupIndex)).toEqual([0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3]);
    // each trial keeps its place in the plan, so results and resume are by plan index as before
    expect(ordered.map((t) => t.index).sort((p, q) => p - q)).toEqual(jobs.map((_, i) => i));
    expect(firstLiveGroup(jobs)).toEqual({ key: 'x:1|num_ctx=4096', model: 'x:1', options: { numCtx: 4096 } });
  });

  it('groups a --set num_ctx axis by value, and leaves a run of one num_ctx in plan order', () => {
    const configs = configurations(parseAxes(['num_ctx=2048,4096']).axes);
    const jobs = planJobs([scenario('a'), scenario('b')], { configs, trials: 1 });
    expect(orderLiveTrials(indexed(jobs)).map(label)).toEqual([
      'm:1/a[num_ctx=2048]#1',
      'm:1/b[num_ctx=2048]#1',
      'm:1/a[num_ctx=4096]#1',
      'm:1/b[num_ctx=4096]#1',
    ]);
    const plain = planJobs([scenario('a'), scenario('b')], { configs: configurations([]), trials: 2 });
    expect(orderLiveTrials(indexed(plain)).map(label)).toEqual(plain.map((job) => label({ job })));
  });

  it('orders what is left of a resumed run the same way, each trial with its plan index and ids', () => {
    const scenarios = [scenario('a', 4096), scenario('b', 8192)];
    const plan = planRun(scenarios, { trials: 2, models: ['x:1'] }, { mode: 'live', backend: 'http://h', loupeRevision: 'r' });
    const run = { id: 'run-1', status: 'interrupted', ...plan.run } as unknown as EvalRunRow;
    const rows = [
      { id: 't1', scenarioId: 'a', scenarioHash: 'h-a', model: 'x:1', configKey: '', trialIndex: 1, status: 'passed', attempt: 1 },
      { id: 't2', scenarioId: 'b', scenarioHash: 'h-b', model: 'x:1', configKey: '', trialIndex: 1, status: 'running', attempt: 1 },
    ].map((r) => ({ iterations: 1, outcome: null, sessionId: null, expectations: [], failedExpectations: [], ...r }));
    const resumed = resumePlan(run, rows as never, scenarios);
    const ordered = orderLiveTrials(resumed.todo);
    expect(ordered.map((t) => [label(t), t.index, t.group.key, t.replaces ?? null])).toEqual([
      ['x:1/a#2', 1, 'x:1|num_ctx=4096', null],
      ['x:1/b#1', 2, 'x:1|num_ctx=8192', 't2'],
      ['x:1/b#2', 3, 'x:1|num_ctx=8192', null],
    ]);
    expect(ordered.every((t) => t.ids?.trialId)).toBe(true);
  });
});

describe('the group gate', () => {
  it('lets trials of one group run together, and opens the next group only once the previous one drained', async () => {
    const gate = new LiveGroupGate();
    const opened: number[] = [];
    const log: string[] = [];
    await gate.enter(0, (g) => opened.push(g));
    await gate.enter(0, (g) => opened.push(g));
    expect(gate.running).toBe(2);
    const next = gate.enter(1, (g) => opened.push(g)).then(() => log.push('group 1 in'));
    const after = gate.enter(2, (g) => opened.push(g)).then(() => log.push('group 2 in'));
    gate.leave();
    await Promise.resolve();
    expect(log).toEqual([]);
    gate.leave();
    await next;
    expect(log).toEqual(['group 1 in']);
    expect(opened).toEqual([0, 1]);
    gate.leave();
    await after;
    expect(log).toEqual(['group 1 in', 'group 2 in']);
    expect(opened).toEqual([0, 1, 2]);
  });
});

describe('the trial schedule', () => {
  it('warms each live group once, when it opens, and leaves scripted runs in plan order without a warm-up', async () => {
    const jobs = planJobs([scenario('a', 4096), scenario('b', 8192), scenario('c', 4096)], { configs: configurations([]), trials: 1 });
    const warms: string[] = [];
    const live = trialSchedule(indexed(jobs), {
      warm: (g) => {
        if (!warms.includes(g.key)) warms.push(g.key);
        return Promise.resolve();
      },
    });
    expect(live.todo.map((t) => t.job.scenario.id)).toEqual(['a', 'c', 'b']);
    const first = await live.open(0);
    expect(first.warmed).toBeInstanceOf(Promise);
    await live.open(1);
    expect(warms).toEqual(['m:1|num_ctx=4096']);
    let thirdOpen = false;
    const third = live.open(2).then(() => (thirdOpen = true));
    live.close();
    await Promise.resolve();
    expect(thirdOpen).toBe(false);
    live.close();
    await third;
    expect(warms).toEqual(['m:1|num_ctx=4096', 'm:1|num_ctx=8192']);

    const scripted = trialSchedule(indexed(jobs), undefined);
    expect(scripted.todo.map((t) => t.job.scenario.id)).toEqual(['a', 'b', 'c']);
    expect(await scripted.open(2)).toEqual({});
  });
});
