// The run as Markdown for a pull request: a headline, the scenario × (model, configuration)
// matrix, roll-ups with intervals and pass^k, pathology rates, the failures (collapsed) and, when
// given, the verdicts against a baseline run. Deterministic: same input, same text.
import type { Comparison, Proportion, Summary } from '../statistics/statistics-types';
import type { KeyedSummary } from '../statistics/summarize';
import {
  configLabel,
  duration,
  expectationLines,
  modelConfigLabel,
  percent,
  percentInterval,
  pValue,
  rateWithCount,
  trialsOfCell,
} from './report-format';
import type { ReportInput, ReportTrial } from './report-input';

/** text safe inside a table cell: one line, pipes escaped */
function cellText(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/**
 * free text (expectation messages, errors) safe in a list item: one line, no stray HTML, no
 * emphasis or code spans from `*` and backticks. Underscores and brackets stay as they are: GitHub
 * does not emphasise inside words (`final_answer`) and brackets alone make no link.
 */
function prose(s: string): string {
  return s
    .replace(/\s*\n\s*/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/([\\`*])/g, '\\$1');
}

function code(s: string): string {
  return s.includes('`') ? `\`\` ${s} \`\`` : `\`${s}\``;
}

function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.map(cellText).join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cellText).join(' | ')} |`),
  ];
}

/** the k of pass^k worth a column: those with a value somewhere in the run */
function shownKs(run: Summary): string[] {
  return Object.keys(run.passHatK).filter((k) => run.passHatK[k] !== null);
}

function headline(r: ReportInput): string[] {
  const s = r.summaries.run;
  const backend = r.backend.kind === 'standin' ? 'Ollama stand-in' : `Ollama at ${r.backend.host}`;
  const rate = s.passRate.rate === null ? 'no judged trials' : `${rateWithCount(s.passRate)}, 95% CI ${percentInterval(s.passRate)}`;
  const out = [
    `## Loupe eval ${code(r.runId)}`,
    '',
    `**Pass rate ${rate}** · ${s.trials} trials: ${s.passed} passed, ${s.failed} failed, ${s.errored} errored · ${duration(r.durationMs)}`,
    '',
    `- Backend: ${backend}`,
    `- Models: ${r.summaries.models.map((m) => code(m.key)).join(', ')}`,
    `- Configurations: ${r.summaries.configs.map((c) => code(configLabel(c.key))).join(', ')}`,
    `- Started: ${r.startedAt}`,
  ];
  if (r.notRun) out.push(`- Not run: ${r.notRun} trials`);
  if (r.stoppedBy) out.push(`- **Stopped early:** ${prose(r.stoppedBy)}`);
  return out;
}

function matrixCell(s: Summary | undefined): string {
  if (!s) return '–';
  const judged = s.passed + s.failed;
  const mark = s.failed > 0 ? ' ✗' : '';
  const errors = s.errored > 0 ? ` ⚠ ${s.errored} error${s.errored > 1 ? 's' : ''}` : '';
  return `${s.passed}/${judged}${mark}${errors}`;
}

function matrix(r: ReportInput): string[] {
  const cells = r.summaries.cells;
  const columns = [...new Map(cells.map((c) => [`${c.model}\u0000${c.configKey}`, c])).values()].sort((a, b) =>
    a.model < b.model ? -1 : a.model > b.model ? 1 : a.configKey < b.configKey ? -1 : a.configKey > b.configKey ? 1 : 0,
  );
  const scenarios = [...new Set(cells.map((c) => c.scenarioId))];
  const rows = scenarios.map((sc) => [
    code(sc),
    ...columns.map((col) =>
      matrixCell(cells.find((c) => c.scenarioId === sc && c.model === col.model && c.configKey === col.configKey)?.summary),
    ),
  ]);
  return [
    '### Results',
    '',
    ...table(['Scenario', ...columns.map((c) => modelConfigLabel(c.model, c.configKey))], rows),
    '',
    'Passed of judged trials; ✗ some failed; ⚠ errored trials (infrastructure) are not counted.',
  ];
}

function rollup(title: string, label: string, groups: KeyedSummary[], ks: string[], name: (key: string) => string): string[] {
  const rows = groups.map(({ key, summary: s }) => [
    code(name(key)),
    `${s.trials}${s.errored ? ` (${s.errored} errored)` : ''}`,
    rateWithCount(s.passRate),
    percentInterval(s.passRate),
    ...ks.map((k) => (s.passHatK[k] === null ? '–' : percent(s.passHatK[k]!))),
  ]);
  return [`### ${title}`, '', ...table([label, 'Trials', 'Pass rate', '95% CI', ...ks.map((k) => `pass^${k}`)], rows)];
}

function pathologies(r: ReportInput): string[] {
  const entries = Object.entries(r.summaries.run.pathologies) as Array<[string, Proportion & { events: number }]>;
  if (!entries.length) return ['### Pathologies', '', 'None recorded in judged trials.'];
  const rows = entries.map(([key, p]) => [
    code(key),
    `${p.successes}/${p.n}`,
    p.rate === null ? '–' : percent(p.rate),
    percentInterval(p),
    String(p.events),
  ]);
  return [
    '### Pathologies',
    '',
    ...table(['Pathology', 'Trials', 'Rate', '95% CI', 'Events'], rows),
    '',
    'Share of judged trials with at least one event.',
  ];
}

function failureItem(t: ReportTrial): string[] {
  const where = `${code(t.scenarioId)} · ${prose(modelConfigLabel(t.model, t.configKey))} · trial ${t.trial}`;
  if (t.status === 'error') return [`- **ERROR** ${where}: ${prose(t.error ?? 'unknown error')}`];
  return [
    `- **FAIL** ${where}${t.sessionId ? ` · session ${code(t.sessionId)}` : ''}`,
    ...expectationLines(t).map((l) => `  - ${prose(l)}`),
  ];
}

function failures(r: ReportInput): string[] {
  // in matrix order: by cell, then trial
  const problems = r.summaries.cells
    .flatMap((c) => trialsOfCell(r.trials, c.scenarioId, c.model, c.configKey))
    .filter((t) => t.status !== 'passed');
  if (!problems.length) return [];
  const failed = problems.filter((t) => t.status === 'failed').length;
  const errored = problems.length - failed;
  return [
    '### Failures',
    '',
    '<details>',
    `<summary>${failed} failed, ${errored} errored</summary>`,
    '',
    ...problems.flatMap(failureItem),
    '',
    '</details>',
  ];
}

/** percentage points, signed: `+12.5 pts`, `−40 pts` */
function points(x: number): string {
  const v = (Math.abs(x) * 100).toFixed(1).replace(/\.0$/, '');
  return `${x > 0 ? '+' : x < 0 ? '−' : '±'}${v} pts`;
}

function comparisonRow(level: string, name: string, c: Comparison): string[] {
  const diff = c.difference === null ? '–' : points(c.difference);
  const ci = c.differenceCi ? ` [${points(c.differenceCi.lo)}, ${points(c.differenceCi.hi)}]` : '';
  const verdict = c.verdict === 'no_significant_change' ? 'no significant change' : `**${c.verdict}**`;
  return [
    level,
    name,
    rateWithCount(c.a),
    rateWithCount(c.b),
    diff + ci,
    pValue(c.pValue),
    c.test === 'mcnemar_exact' ? 'McNemar' : 'Fisher',
    verdict,
  ];
}

function comparison(r: ReportInput): string[] {
  if (!r.comparison) return [];
  const { baselineRunId, result } = r.comparison;
  const changedCells = result.cells.filter((c) => c.verdict !== 'no_significant_change');
  const cellName = (key: string) => {
    const c = r.summaries.cells.find((x) => x.key === key);
    return c ? `${code(c.scenarioId)} · ${modelConfigLabel(c.model, c.configKey)}` : code(key);
  };
  const rows = [
    comparisonRow('run', 'all', result.run),
    ...result.configs.map((c) => comparisonRow('configuration', code(configLabel(c.key)), c)),
    ...result.models.map((c) => comparisonRow('model', code(c.key), c)),
    ...changedCells.map((c) => comparisonRow('cell', cellName(c.key), c)),
  ];
  const unchanged = result.cells.length - changedCells.length;
  return [
    `### Compared with ${code(baselineRunId)}`,
    '',
    ...table(['Level', 'Group', 'Before', 'After', 'Δ', 'p', 'Test', 'Verdict'], rows),
    '',
    `${unchanged ? `${unchanged} of ${result.cells.length} cells without significant change not listed. ` : ''}McNemar where trials pair, Fisher otherwise; Δ with its 95% Newcombe interval when unpaired.`,
  ];
}

export function toMarkdown(report: ReportInput): string {
  const ks = shownKs(report.summaries.run);
  const sections = [
    headline(report),
    matrix(report),
    rollup('By model', 'Model', report.summaries.models, ks, (k) => k),
    rollup('By configuration', 'Configuration', report.summaries.configs, ks, configLabel),
    pathologies(report),
    failures(report),
    comparison(report),
  ].filter((s) => s.length);
  return sections.map((s) => s.join('\n')).join('\n\n') + '\n';
}
