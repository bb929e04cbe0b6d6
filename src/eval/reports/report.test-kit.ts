// A small run for the renderer tests: trial reports and their outcomes built from one spec, then
// summarized with the real statistics, as the runner will.
import type { ExpectationResult } from '../expectations/evaluate-expectations';
import { compareRuns } from '../statistics/compare';
import { outcome } from '../statistics/outcomes.test-kit';
import type { PathologyKey, TrialOutcome } from '../statistics/statistics-types';
import { summarizeAll } from '../statistics/summarize';
import type { ReportInput, ReportTrial } from './report-input';

export interface CellSpec {
  scenarioId: string;
  model: string;
  configKey: string;
  /** one letter per trial: P passed, F failed, U unjudged, E error */
  statuses: string;
  failed?: Record<number, ExpectationResult[]>;
  errors?: Record<number, string>;
  pathologies?: Record<number, Partial<Record<PathologyKey, number>>>;
}

export function buildTrials(runId: string, cells: CellSpec[]): { trials: ReportTrial[]; outcomes: TrialOutcome[] } {
  const trials: ReportTrial[] = [];
  const outcomes: TrialOutcome[] = [];
  const of = { P: 'passed', F: 'failed', U: 'unjudged', E: 'error' } as const;
  for (const c of cells) {
    [...c.statuses].forEach((ch, i) => {
      const trial = i + 1;
      const status = of[ch as keyof typeof of];
      const failedExpectations = c.failed?.[trial] ?? [];
      trials.push({
        trialId: `${runId}-${c.scenarioId}-${c.model}-${c.configKey}-${trial}`,
        scenarioId: c.scenarioId,
        title: c.scenarioId,
        file: `scenarios/${c.scenarioId}.yaml`,
        spec: '',
        model: c.model,
        configKey: c.configKey,
        profile: 'loupe',
        judgedBy: 'expect',
        trial,
        sessionId: status === 'error' ? null : `sess-${c.scenarioId}-${trial}`,
        traceId: null,
        status,
        terminationReason: status === 'error' ? null : 'final_answer',
        expectations: failedExpectations,
        failedExpectations,
        invariantViolations: [],
        iterations: 2,
        events: 10,
        durationMs: 1500,
        ...(status === 'error' ? { error: c.errors?.[trial] ?? 'unknown' } : {}),
        ...(status === 'unjudged' ? { error: c.errors?.[trial] ?? 'no success criteria apply to this trial' } : {}),
      });
      outcomes.push(
        outcome({
          scenarioId: c.scenarioId,
          model: c.model,
          configKey: c.configKey,
          trial,
          status,
          pathologies: c.pathologies?.[trial] ?? {},
        }),
      );
    });
  }
  return { trials, outcomes };
}

export const fixtureCells: CellSpec[] = [
  { scenarioId: 'read-file', model: 'llama3.1:8b', configKey: '', statuses: 'PPP' },
  {
    scenarioId: 'read-file',
    model: 'qwen3:8b',
    configKey: '',
    statuses: 'PFP',
    failed: {
      2: [
        {
          expectation: 'event tool.call with {"name":"read_file"} is recorded',
          passed: false,
          detail: 'found 0 matching; tool.call payloads recorded: none',
        },
        { expectation: 'session terminates with final_answer', passed: false },
      ],
    },
    pathologies: { 2: { 'nudge.tooShort': 1 } },
  },
  { scenarioId: 'read-file', model: 'qwen3:8b', configKey: 'temperature=0', statuses: 'PPP' },
  {
    scenarioId: 'write-file',
    model: 'qwen3:8b',
    configKey: '',
    statuses: 'PPE',
    errors: { 3: 'ollama: connect ECONNREFUSED <127.0.0.1:11434>' },
  },
  {
    scenarioId: 'write-file',
    model: 'qwen3:8b',
    configKey: 'temperature=0',
    statuses: 'FFP',
    failed: {
      1: [{ expectation: 'file out.txt equals "a|b"', passed: false, detail: 'file content: "a"' }],
      2: [{ expectation: 'iterations <= 5', passed: false, detail: 'ran 8 iterations' }],
    },
    pathologies: { 2: { repeat_break: 2, max_iterations: 1 } },
  },
];

export function fixtureReport(opts: { withComparison?: boolean } = {}): ReportInput {
  const { trials, outcomes } = buildTrials('run-1', fixtureCells);
  const report: ReportInput = {
    runId: 'run-1',
    startedAt: '2026-09-01T10:00:00.000Z',
    durationMs: 12345,
    backend: { kind: 'ollama', host: 'http://gpu:11434' },
    passed: trials.filter((t) => t.status === 'passed').length,
    failed: trials.filter((t) => t.status === 'failed').length,
    unjudged: trials.filter((t) => t.status === 'unjudged').length,
    errored: trials.filter((t) => t.status === 'error').length,
    notRun: 0,
    mode: 'live',
    models: ['llama3.1:8b', 'qwen3:8b'],
    configurations: [
      { key: '', overrides: {} },
      { key: 'temperature=0', overrides: { temperature: 0 } },
    ],
    trialsPerCell: 3,
    trials,
    summaries: summarizeAll(outcomes, { ks: [1, 3] }),
  };
  if (opts.withComparison) {
    // the baseline passed everything the fixture runs
    const baseline = buildTrials(
      'run-0',
      fixtureCells.map((c) => ({ ...c, statuses: 'P'.repeat(c.statuses.length) })),
    );
    report.comparison = { baselineRunId: 'run-0', result: compareRuns(baseline.outcomes, outcomes) };
  }
  return report;
}
