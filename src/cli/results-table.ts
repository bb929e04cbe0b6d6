// Pure formatting of an eval run for the terminal and for --json.
import type { EvalRunReport, TrialReport } from '../eval/eval-types';
import type { PassKEstimate } from '../eval/statistics/pass-k-estimate';
import type { Proportion, Summary } from '../eval/statistics/statistics-types';
import { pathologyTable } from './pathology-table';

/** The statistics code, loaded once a run is reported (not at the start of every `loupe eval`, which imports this file). */
function measuredReloads(run: Pick<Summary, 'pathologies'>): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../eval/statistics/summarize') as typeof import('../eval/statistics/summarize')).measuredReloads(run);
}

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

/** `0.67 [0.33–1.00]`, and with `cells` how many cells it rests on and how many had too few judged trials */
export function passKText(e: PassKEstimate | undefined, cells = false): string {
  if (!e) return '–';
  const few = e.cellsTooFew ? `, ${e.cellsTooFew} too few` : '';
  const count = cells ? ` (${e.cells} cell${e.cells === 1 ? '' : 's'}${few})` : '';
  if (e.value === null) return `–${count}`;
  return `${e.value.toFixed(2)} [${e.lo!.toFixed(2)}–${e.hi!.toFixed(2)}]${count}`;
}

/** `2/3 judged (1 unjudged, 1 err)` */
function judgedCount(s: Summary): string {
  const apart = [s.unjudged ? `${s.unjudged} unjudged` : '', s.errored ? `${s.errored} err` : ''].filter(Boolean).join(', ');
  return `${s.passed}/${s.passed + s.failed}${apart ? ` (${apart})` : ''}`;
}

const RESULT = { passed: 'pass', failed: 'FAIL', unjudged: 'UNJUDGED', error: 'ERROR' } as const;

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
          RESULT[t.status],
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
          judgedCount(c.summary),
          rateWithInterval(c.summary.passRate),
          passKText(c.summary.passHatKDetail?.[String(k)]),
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
          judgedCount(s),
          rateWithInterval(s.passRate),
          passKText(s.passHatKDetail?.[String(k)], true),
          passKText(s.passAtKDetail?.[String(k)], true),
        ]),
      ),
    );
  }
  const pathologies = pathologyTable(report.summaries.run.pathologies);
  if (pathologies.length) out.push('', ...pathologies);
  // a live run's timings are clean only when no measured turn paid a model load
  const reloads = measuredReloads(report.summaries.run);
  if (report.mode === 'live' || reloads)
    out.push(`Reloads inside measured turns: ${reloads}${reloads ? " (model_reloaded: those turns' latency includes a model load)" : ''}`);
  const problems = report.trials.filter((t) => t.status !== 'passed');
  if (problems.length) {
    out.push('');
    for (const t of problems) out.push(...describeProblem(t));
  }
  if (report.comparison) {
    const { result, baselineRunId } = report.comparison;
    const r = result.run;
    const p = (v: number | null) => (v === null ? '–' : v.toPrecision(2));
    const run =
      r.status === 'compared'
        ? `${rateWithInterval(r.a.passRate)} → ${rateWithInterval(r.b.passRate)} over ${result.matchedCells} matched cells, p = ${p(r.pValue)}, Holm p = ${p(r.holm)} (${r.test}): ${r.verdict!.replace(/_/g, ' ')}`
        : `not compared (${r.reason})`;
    // the summary line and the findings go to stderr with the gate (see baseline-gate.ts)
    out.push('', `Compared with run ${baselineRunId}: ${run}`);
  }
  out.push('');
  const backend = report.replayOf
    ? `replay of run ${report.replayOf}`
    : report.mode === 'sim'
      ? 'simulated models on the Ollama stand-in'
      : report.backend.kind === 'standin'
        ? 'Ollama stand-in'
        : `Ollama at ${report.backend.host}`;
  const notRun = report.notRun ? `, ${report.notRun} not run` : '';
  // unjudged trials are never passes: said apart, beside the failures
  const unjudged = report.unjudged ? `, ${report.unjudged} unjudged` : '';
  out.push(
    `${report.passed} passed, ${report.failed} failed${unjudged}, ${report.errored} errors${notRun} (${report.trials.length} trials, ${backend}) in ${ms(report.durationMs)} — run ${report.runId}`,
  );
  if (!single) {
    out.push(
      `pass rate ${rateWithInterval(report.summaries.run.passRate)} over ${report.summaries.run.passed + report.summaries.run.failed} judged trials`,
    );
    const hat = report.summaries.run.passHatKDetail?.[String(k)];
    if (hat) out.push(`pass^${k} ${passKText(hat, true)}, 95% bootstrap interval over cells`);
  }
  if (report.stoppedBy) out.push(`STOPPED EARLY: ${report.stoppedBy}${interruptedNote(report)}`);
  return out.join('\n');
}

/** Trials a signal cut short are in no count: said, with how to finish them. */
function interruptedNote(report: EvalRunReport): string {
  return report.interrupted ? ` (${report.interrupted} trial(s) interrupted; finish the run: loupe eval resume ${report.runId})` : '';
}

function describeProblem(t: TrialReport): string[] {
  const where = `${t.scenarioId} [${t.model} #${t.trial}${t.configKey ? ` ${t.configKey}` : ''}] (${t.file})`;
  if (t.status === 'error') return [`ERROR ${where}: ${t.error ?? 'unknown error'}`];
  if (t.status === 'unjudged') return [`UNJUDGED ${where}: ${t.error ?? 'no check applied'}`];
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
    summary: {
      passed: report.passed,
      failed: report.failed,
      unjudged: report.unjudged,
      errored: report.errored,
      notRun: report.notRun,
      trials: report.trials.length,
    },
    stoppedBy: report.stoppedBy ?? null,
    // trials a signal cut short: in no count of `summary` (rerun by `eval resume`)
    interrupted: report.interrupted ?? 0,
    storage: report.storage ?? null,
    /** model_reloaded events inside measured turns (the run's pathology; 0 expected) */
    reloadsInMeasuredTurns: measuredReloads(report.summaries.run),
    statistics: report.summaries,
    comparison: report.comparison ?? null,
    replayOf: report.replayOf ?? null,
    seed: report.seed ?? null,
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
      error: t.status === 'unjudged' ? null : (t.error ?? null),
      // why no check applied, apart from errors: an unjudged trial is neither a failure nor an error
      unjudgedReason: t.status === 'unjudged' ? (t.error ?? 'no check applied') : null,
      /** what the trial ran against (null: it errored before its backend was described) */
      provenance: t.provenance ?? null,
    })),
  };
}
