// Pure formatting of an eval run for the terminal.
import type { EvalRunReport, TrialReport } from '../eval/eval-types';

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function ms(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n} ms`;
}

export function formatResultsTable(report: EvalRunReport): string {
  const header = ['SCENARIO', 'MODEL', 'TRIAL', 'RESULT', 'END', 'ITER', 'EVENTS', 'TIME'];
  const rows = report.trials.map((t) => [
    t.scenarioId, t.model, String(t.trial), t.status === 'passed' ? 'pass' : t.status === 'failed' ? 'FAIL' : 'ERROR',
    t.terminationReason ?? '-', String(t.iterations), String(t.events), ms(t.durationMs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i])).join('  ').trimEnd();
  const out = [line(header), ...rows.map(line)];
  const problems = report.trials.filter((t) => t.status !== 'passed');
  if (problems.length) {
    out.push('');
    for (const t of problems) out.push(...describeProblem(t));
  }
  out.push('');
  const backend = report.backend.kind === 'standin' ? 'Ollama stand-in' : `Ollama at ${report.backend.host}`;
  const notRun = report.notRun ? `, ${report.notRun} not run` : '';
  out.push(`${report.passed} passed, ${report.failed} failed, ${report.errored} errors${notRun} (${report.trials.length} trials, ${backend}) in ${ms(report.durationMs)} — run ${report.runId}`);
  if (report.stoppedBy) out.push(`STOPPED EARLY: ${report.stoppedBy}`);
  return out.join('\n');
}

function describeProblem(t: TrialReport): string[] {
  const where = `${t.scenarioId} [${t.model} #${t.trial}] (${t.file})`;
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
    summary: { passed: report.passed, failed: report.failed, errored: report.errored, notRun: report.notRun, trials: report.trials.length },
    stoppedBy: report.stoppedBy ?? null,
    trials: report.trials.map((t) => ({
      scenarioId: t.scenarioId, title: t.title, file: t.file, spec: t.spec, model: t.model, trial: t.trial,
      sessionId: t.sessionId, traceId: t.traceId, status: t.status, passed: t.status === 'passed',
      terminationReason: t.terminationReason, iterations: t.iterations, events: t.events, durationMs: t.durationMs,
      failedExpectations: t.failedExpectations, error: t.error ?? null,
    })),
  };
}
