// The task suite (scenarios/tasks/): multi-step workspace tasks judged by `success:` alone, the
// criteria a live or simulated model is held to. Replayed as scripted, each intended solution must
// pass under every loop profile, judged by those criteria (never unjudged). And the criteria must be
// able to fail: the same tasks with a wrong solution — the answer given before any work, the last
// edit left out, a wrong final answer, near misses of a few tasks — are failed by them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, stringify } from 'yaml';
import { ScenarioRunner } from '../../src/eval/scenario-runner.service';
import { loadScenarios } from '../../src/eval/scenario/scenario-loader';
import { parseScenario } from '../../src/eval/scenario/scenario-parser';
import type { Scenario } from '../../src/eval/scenario/scenario';
import { configurations, parseAxes } from '../../src/eval/run-plan';
import { LOOP_PROFILE_NAMES } from '../../src/process/policies/loop-settings';
import type { TrialReport } from '../../src/eval/eval-types';
import { createTestApp, type TestApp } from '../support/test-app';

const ROOT = path.join(__dirname, '..', '..');
const DIR = path.join(ROOT, 'scenarios', 'tasks');
const tasks = loadScenarios(['scenarios/tasks'], ROOT);

interface Call {
  name: string;
  arguments: Record<string, unknown>;
}
interface Turn {
  content?: string;
  tool_calls?: Call[];
}

const writes = (t: Turn) => (t.tool_calls ?? []).some((c) => c.name === 'write_file');
const hasCheck = (s: Scenario, kind: 'file' | 'final_answer') => (s.success ?? []).some((e) => kind in e);

/** The task's file as a document, with its script changed and a new id: a wrong solution to the same task. */
function wrongSolution(task: Scenario, suffix: string, change: (script: Turn[]) => Turn[]): Scenario {
  const file = path.join(ROOT, task.file);
  const doc = parse(fs.readFileSync(file, 'utf8')) as { id: string; script: Turn[] };
  doc.id = `${doc.id}--${suffix}`;
  doc.script = change(doc.script);
  const parsed = parseScenario(stringify(doc), `${task.file} (${suffix})`, file);
  if (!parsed.ok) throw new Error(`${task.id} (${suffix}): ${JSON.stringify(parsed.problems)}`);
  return parsed.scenario;
}

/** Text replaced in the script only (its calls' arguments and its answer), never in the criteria. */
const replaced =
  (pairs: Array<[string, string]>) =>
  (script: Turn[]): Turn[] =>
    JSON.parse(pairs.reduce((text, [from, to]) => text.split(from).join(to), JSON.stringify(script))) as Turn[];

// plausible mistakes a model makes on these tasks, each of which the task's criteria must catch
const NEAR_MISSES: Record<string, Array<[string, string]>> = {
  'tasks/edit-config-value': [['port: 9090', 'port: 9091']],
  'tasks/aggregate-sales': [['3000', '5450']],
  'tasks/answer-from-several-files': [
    ['Priya Raman', 'Kenji Sato'],
    ['Europe/Dublin', 'Asia/Tokyo'],
  ],
  'tasks/count-calls-with-command': [['There are 4 calls', 'There are 5 calls']],
  // "fixed" by changing the test's expectation instead of the code
  'tasks/fix-failing-test': [
    ['"path":"sum.sh"', '"path":"test.sh"'],
    ['s += $1', 's -= $1'],
  ],
  'tasks/summarise-logs': [['Total: 3 errors', 'Total: 2 errors']],
};

const wrong: Array<{ kind: string; task: Scenario; scenario: Scenario }> = [];
for (const task of tasks) {
  const script = parse(fs.readFileSync(path.join(ROOT, task.file), 'utf8')).script as Turn[];
  const answer = script[script.length - 1];
  // the sim persona's "answer before the work is done"
  wrong.push({ kind: 'answered-at-once', task, scenario: wrongSolution(task, 'answered-at-once', () => [answer]) });
  if (script.some(writes)) {
    const last = script.map(writes).lastIndexOf(true);
    wrong.push({
      kind: 'last-write-dropped',
      task,
      scenario: wrongSolution(task, 'last-write-dropped', (s) => s.filter((_, i) => i !== last)),
    });
  }
  if (hasCheck(task, 'final_answer'))
    wrong.push({
      kind: 'wrong-answer',
      task,
      scenario: wrongSolution(task, 'wrong-answer', (s) => [...s.slice(0, -1), { content: 'I have finished the task.' }]),
    });
  if (NEAR_MISSES[task.id])
    wrong.push({ kind: 'near-miss', task, scenario: wrongSolution(task, 'near-miss', replaced(NEAR_MISSES[task.id])) });
}

describe('scenarios/tasks: the task suite', () => {
  it('has at least 22 tasks, each a scripted solution of 3–8 single-call steps and a final answer', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(22);
    for (const task of tasks) {
      const script = parse(fs.readFileSync(path.join(ROOT, task.file), 'utf8')).script as Turn[];
      const steps = script.slice(0, -1);
      expect({
        id: task.id,
        named: task.id === `tasks/${path.basename(task.file, '.yaml')}`,
        titled: task.title !== task.id && task.spec !== '',
        steps: steps.length >= 3 && steps.length <= 8,
        oneCallEach: steps.every((t) => t.tool_calls?.length === 1 && !t.content),
        endsWithAnswer: !!script[script.length - 1].content && !script[script.length - 1].tool_calls,
      }).toEqual({ id: task.id, named: true, titled: true, steps: true, oneCallEach: true, endsWithAnswer: true });
    }
  });

  it('judges every task by its success criteria alone: outcomes, a clean end and a budget', () => {
    for (const task of tasks) {
      const kinds = (task.success ?? []).map((e) => Object.keys(e)[0]);
      expect({
        id: task.id,
        expect: task.expect.length,
        byProfile: task.expectByProfile,
        outcome: hasCheck(task, 'file') || hasCheck(task, 'final_answer'),
        termination: kinds.includes('termination'),
        budget: kinds.includes('iterations'),
      }).toEqual({ id: task.id, expect: 0, byProfile: undefined, outcome: true, termination: true, budget: true });
    }
  });

  it('lists every task in its README', () => {
    const readme = fs.readFileSync(path.join(DIR, 'README.md'), 'utf8');
    expect(tasks.filter((t) => !readme.includes(`\`${t.id}\``)).map((t) => t.id)).toEqual([]);
  });

  describe('replayed on the stand-in', () => {
    let t: TestApp;
    const solved = new Map<string, TrialReport>();
    const failed = new Map<string, TrialReport>();
    beforeAll(async () => {
      t = await createTestApp();
      const runner = t.app.get(ScenarioRunner);
      const { axes, problems } = parseAxes([`profile=${LOOP_PROFILE_NAMES.join(',')}`]);
      if (problems.length) throw new Error(problems.join('; '));
      const replayed = await runner.run(tasks, { configurations: configurations(axes), concurrency: 3 });
      for (const r of replayed.trials) solved.set(`${r.scenarioId} @ ${r.profile}`, r);
      // wrong solutions under the default profile, whose loop nudges and guards the most
      const mistaken = await runner.run(
        wrong.map((w) => w.scenario),
        { concurrency: 3 },
      );
      for (const r of mistaken.trials) failed.set(r.scenarioId, r);
    }, 600_000);
    afterAll(async () => {
      await t?.close();
    });

    const cells = tasks.flatMap((s) => LOOP_PROFILE_NAMES.map((profile) => [s.id, profile] as const));
    it.each(cells)('%s passes its success criteria under %s', (id, profile) => {
      const r = solved.get(`${id} @ ${profile}`);
      expect({ id, profile, status: r?.status, judgedBy: r?.judgedBy, error: r?.error, failed: r?.failedExpectations }).toEqual({
        id,
        profile,
        status: 'passed',
        judgedBy: 'success',
        error: undefined,
        failed: [],
      });
      // judged: the criteria were checked, one result each
      expect(r!.expectations.length).toBeGreaterThanOrEqual(3);
    });

    it('builds wrong solutions of every kind', () => {
      const kinds = new Set(wrong.map((w) => w.kind));
      expect([...kinds].sort()).toEqual(['answered-at-once', 'last-write-dropped', 'near-miss', 'wrong-answer']);
      expect(wrong.filter((w) => w.kind === 'near-miss').length).toBe(Object.keys(NEAR_MISSES).length);
    });

    it.each(wrong.map((w) => [w.scenario.id, w.kind] as const))('%s fails its success criteria', (id, kind) => {
      const r = failed.get(id);
      expect({ id, status: r?.status, judgedBy: r?.judgedBy, error: r?.error }).toEqual({
        id,
        status: 'failed',
        judgedBy: 'success',
        error: undefined,
      });
      const failedChecks = r!.failedExpectations.map((e) => e.expectation);
      // each kind of wrong solution is caught by the check meant for it, not only by a side effect
      if (kind === 'last-write-dropped') expect(failedChecks.some((e) => e.startsWith('file '))).toBe(true);
      if (kind === 'wrong-answer') expect(failedChecks.some((e) => e.startsWith('final answer '))).toBe(true);
      expect(failedChecks.length).toBeGreaterThan(0);
    });
  });
});
