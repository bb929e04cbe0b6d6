// Pure formatting of an eval run for the terminal and for --json.
import type { EvalRunReport, TrialReport } from '../eval/eval-types';
import type { Proportion, Summary } from '../eval/statistics/statistics-types';

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function ms(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n} ms`;
}

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(x === 1 || x === 0 ? 0 : 1)}%`);

/** "92.3% [81.0–97.0]" — the rate with its 95% Wilson interval */
export function rateWithInterval(p: Proportion): string {
  if (p.rate === null) return '–';
  return `${pct(p.rate)} [${pct(p.lo)}–${pct(p.hi)}]`;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => pad(c, widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

function mostCommon(terminations: Record<string, number>): string {
  const [top] = Object.entries(terminations).sort((a, b) => b[1] - a[1]);
  return top ? top[0] : '-';
}

function passHat(s: Summary, k: number): string {
  const v = s.passHatK[String(k)];
  return v === undefined || v === null ? '–' : v.toFixed(2);
}

export function formatResultsTable(report: EvalRunReport): string {
  const k = report.trialsPerCell;
  const single = report.trialsPerCell === 1 && report.configurations.length <= 1;
  // a scenario run under several loop profiles gets one row per profile: name it
  const profiles = new Set(report.trials.map((t) => t.profile)).size > 1;
  const out = single
    ? table(
        ['SCENARIO', 'MODEL', ...(profiles ? ['PROFILE'] : []), 'RESULT', 'END', 'ITER', 'EVENTS', 'TIME'],
        report.trials.map((t) => [
          t.scenarioId,
          t.model,
          ...(profiles ? [t.profile] : []),
          t.status === 'passed' ? 'pass' : t.status === 'failed' ? 'FAIL' : 'ERROR',
          t.terminationReason ?? '-',
          String(t.iterations),
          String(t.events),
          ms(t.durationMs),
        ]),
      )
    : table(
        ['SCENARIO', 'MODEL', 'CONFIG', 'PASSED', 'RATE [95% CI]', `PASS^${k}`, 'END'],
        report.summaries.cells.map((c) => [
          c.scenarioId,
          c.model,
          c.configKey || '(scenario)',
          `${c.summary.passed}/${c.summary.trials}${c.summary.errored ? ` (${c.summary.errored} err)` : ''}`,
          rateWithInterval(c.summary.passRate),
          passHat(c.summary, k),
          mostCommon(c.summary.terminations),
        ]),
      );
  if (!single && (report.models.length > 1 || report.configurations.length > 1)) {
    out.push('');
    const roll = [
      ...report.summaries.models.map((m) => ['model', m.key, m.summary]),
      ...(report.configurations.length > 1 ? report.summaries.configs.map((c) => ['config', c.key || '(scenario)', c.summary]) : []),
    ] as Array<[string, string, Summary]>;
    out.push(
      ...table(
        ['BY', 'WHICH', 'PASSED', 'RATE [95% CI]', `PASS^${k}`, `PASS@${k}`],
        roll.map(([by, key, s]) => [
          by,
          key,
          `${s.passed}/${s.passed + s.failed}`,
          rateWithInterval(s.passRate),
          passHat(s, k),
          s.passAtK[String(k)] === undefined || s.passAtK[String(k)] === null ? '–' : s.passAtK[String(k)]!.toFixed(2),
        ]),
      ),
    );
  }
  const pathologies = Object.entries(report.summaries.run.pathologies).filter(([, p]) => p && p.successes > 0);
  if (pathologies.length) {
    out.push('', `Pathologies (share of judged trials): ${pathologies.map(([key, p]) => `${key} ${rateWithInterval(p!)}`).join(', ')}`);
  }
  const problems = report.trials.filter((t) => t.status !== 'passed');
  if (problems.length) {
    out.push('');
    for (const t of problems) out.push(...describeProblem(t));
  }
  if (report.comparison) {
    const r = report.comparison.result.run;
    out.push(
      '',
      `Compared with run ${report.comparison.baselineRunId}: ${rateWithInterval(r.a)} → ${rateWithInterval(r.b)}, p = ${r.pValue === null ? '–' : r.pValue.toPrecision(2)} (${r.test}): ${r.verdict.replace(/_/g, ' ')}`,
    );
  }
  out.push('');
  const backend = report.backend.kind === 'standin' ? 'Ollama stand-in' : `Ollama at ${report.backend.host}`;
  const notRun = report.notRun ? `, ${report.notRun} not run` : '';
  out.push(
    `${report.passed} passed, ${report.failed} failed, ${report.errored} errors${notRun} (${report.trials.length} trials, ${backend}) in ${ms(report.durationMs)} — run ${report.runId}`,
  );
  if (!single)
    out.push(
      `pass rate ${rateWithInterval(report.summaries.run.passRate)} over ${report.summaries.run.passed + report.summaries.run.failed} judged trials`,
    );
  if (report.stoppedBy) out.push(`STOPPED EARLY: ${report.stoppedBy}`);
  return out.join('\n');
}

function describeProblem(t: TrialReport): string[] {
  const where = `${t.scenarioId} [${t.model} #${t.trial}${t.configKey ? ` ${t.configKey}` : ''}] (${t.file})`;
  if (t.status === 'error') return [`ERROR ${where}: ${t.error ?? 'unknown error'}`];
  return [
    `FAIL ${where} session ${t.sessionId}`,
    ...t.failedExpectations.map((e) => `  ✗ ${e.expectation}${e.detail ? ` — ${e.detail}` : ''}`),
  ];
}

export function toJsonReport(report: EvalRunReport): unknown {
  return {
    runId: report.runId,
    startedAt: report.startedAt,
    durationMs: report.durationMs,
    backend: report.backend,
    mode: report.mode,
    models: report.models,
    configurations: report.configurations,
    trialsPerCell: report.trialsPerCell,
    summary: { passed: report.passed, failed: report.failed, errored: report.errored, notRun: report.notRun, trials: report.trials.length },
    stoppedBy: report.stoppedBy ?? null,
    storage: report.storage ?? null,
    statistics: report.summaries,
    comparison: report.comparison ?? null,
    trials: report.trials.map((t) => ({
      scenarioId: t.scenarioId,
      title: t.title,
      file: t.file,
      spec: t.spec,
      model: t.model,
      configKey: t.configKey,
      profile: t.profile,
      judgedBy: t.judgedBy,
      trial: t.trial,
      sessionId: t.sessionId,
      traceId: t.traceId,
      status: t.status,
      passed: t.status === 'passed',
      terminationReason: t.terminationReason,
      iterations: t.iterations,
      events: t.events,
      durationMs: t.durationMs,
      failedExpectations: t.failedExpectations,
      invariantViolations: t.invariantViolations,
      error: t.error ?? null,
    })),
  };
}
