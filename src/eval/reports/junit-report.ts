// The run as JUnit XML for CI: one testcase per scenario × model × configuration, as promptfoo and
// the prior-art survey suggest, with the trial counts and rates as properties. A cell with any
// failed trial is a failure (flaky is not passing); errored trials (infrastructure) are an error.
import builder from 'junit-report-builder';
import type { TestCase, TestSuite } from 'junit-report-builder';
import type { CellSummary } from '../statistics/summarize';
import type { Summary } from '../statistics/statistics-types';
import { decimal, expectationLines, modelConfigLabel, trialsOfCell } from './report-format';
import type { ReportInput } from './report-input';

export interface JUnitOptions {
  /** one testsuite for the whole run (default), or one per scenario */
  suites?: 'run' | 'scenario';
}

function backendLabel(r: ReportInput): string {
  return r.backend.kind === 'standin' ? 'Ollama stand-in' : `Ollama at ${r.backend.host}`;
}

/** `0.667 [0.208, 0.939]`: the rate and its Wilson interval, as plain decimals */
function rateProperty(p: Summary['passRate']): string {
  return p.rate === null ? 'n/a' : `${decimal(p.rate)} [${decimal(p.lo)}, ${decimal(p.hi)}]`;
}

function summaryProperties(node: TestSuite | TestCase, s: Summary): void {
  node.property('trials', String(s.trials));
  node.property('passed', String(s.passed));
  node.property('failed', String(s.failed));
  node.property('errored', String(s.errored));
  node.property('pass_rate', rateProperty(s.passRate));
  for (const [k, v] of Object.entries(s.passHatK)) node.property(`pass^${k}`, decimal(v));
  for (const [key, p] of Object.entries(s.pathologies)) {
    node.property(`pathology.${key}`, `${p.successes}/${p.n} trials, rate ${rateProperty(p)}, events ${p.events}`);
  }
}

function addCase(suite: TestSuite, r: ReportInput, c: CellSummary): void {
  const trials = trialsOfCell(r.trials, c.scenarioId, c.model, c.configKey);
  const tc = suite.testCase().className(c.scenarioId).name(modelConfigLabel(c.model, c.configKey));
  if (trials.length) tc.file(trials[0].file).time(trials.reduce((s, t) => s + t.durationMs, 0) / 1000);
  summaryProperties(tc, c.summary);
  const s = c.summary;
  const failed = trials.filter((t) => t.status === 'failed');
  if (s.failed > 0) {
    tc.failure(`${s.failed} of ${s.passed + s.failed} judged trials failed`, 'expectations');
    // the builder writes the stack trace as the failure element's text
    tc.stacktrace(
      failed
        .map((t) => [`trial ${t.trial} (session ${t.sessionId ?? 'none'}):`, ...expectationLines(t).map((l) => `  ${l}`)].join('\n'))
        .join('\n'),
    );
  }
  const errored = trials.filter((t) => t.status === 'error');
  if (s.errored > 0) {
    tc.error(
      `${s.errored} of ${s.trials} trials errored`,
      'infrastructure',
      errored.map((t) => `trial ${t.trial}: ${t.error ?? 'unknown error'}`).join('\n'),
    );
  }
}

function runProperties(suite: TestSuite, r: ReportInput): void {
  suite.property('run_id', r.runId);
  suite.property('backend', backendLabel(r));
  if (r.notRun) suite.property('not_run', String(r.notRun));
  if (r.stoppedBy) suite.property('stopped_by', r.stoppedBy);
}

export function toJUnit(report: ReportInput, opts: JUnitOptions = {}): string {
  // a fresh builder each time: the package's default export is a shared, stateful instance
  const b = builder.newBuilder().name(`loupe eval ${report.runId}`);
  if ((opts.suites ?? 'run') === 'run') {
    const suite = b
      .testSuite()
      .name(`loupe eval ${report.runId}`)
      .timestamp(report.startedAt)
      .time(report.durationMs / 1000);
    runProperties(suite, report);
    summaryProperties(suite, report.summaries.run);
    for (const c of report.summaries.cells) addCase(suite, report, c);
  } else {
    const scenarios = [...new Set(report.summaries.cells.map((c) => c.scenarioId))];
    for (const scenarioId of scenarios) {
      const suite = b.testSuite().name(scenarioId).timestamp(report.startedAt);
      runProperties(suite, report);
      for (const c of report.summaries.cells.filter((x) => x.scenarioId === scenarioId)) addCase(suite, report, c);
    }
  }
  return b.build();
}
