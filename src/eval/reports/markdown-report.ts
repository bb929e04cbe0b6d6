// The run as Markdown for a pull request: a headline, the scenario × (model, configuration)
// matrix, roll-ups with intervals and pass^k, pathology rates, the failures (collapsed) and, when
// given, the verdicts against a baseline run. Deterministic: same input, same text.
import { comparisonSummaryLine } from '../statistics/comparison-summary';
import type { ComparisonRow, ComparisonSide } from '../statistics/comparison-types';
import type { PassKEstimate } from '../statistics/pass-k-estimate';
import type { Proportion, Summary } from '../statistics/statistics-types';
import { measuredReloads, type KeyedSummary } from '../statistics/summarize';
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

/** any line break (CommonMark ends a line at \n, \r and \r\n) and the blanks around it */
const LINE_BREAK = /\s*[\r\n]\s*/g;

/** text safe inside a table cell: one line, pipes escaped (GFM splits a row only at a pipe without a backslash before it) */
function cellText(s: string): string {
  return s.replace(LINE_BREAK, ' ').replace(/\|/g, '\\|');
}

/**
 * free text (expectation messages, errors) safe in a list item: one line, no stray HTML, no
 * emphasis or code spans from `*` and backticks. Underscores and brackets stay as they are: GitHub
 * does not emphasise inside words (`final_answer`) and brackets alone make no link.
 */
function prose(s: string): string {
  return s
    .replace(LINE_BREAK, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/([\\`*])/g, '\\$1');
}

/**
 * a code span that holds any text on one line: its fence is one backtick longer than the longest run
 * inside (a run as long would close it), and a space pads text that starts or ends with a backtick
 * or a space (CommonMark strips one from each side)
 */
export function code(s: string): string {
  const text = s.replace(LINE_BREAK, ' ');
  if (!text) return '` `';
  if (/^ +$/.test(text)) return `\`${text}\``;
  const fence = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
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
    `**Pass rate ${rate}** · ${s.trials} trials: ${s.passed} passed, ${s.failed} failed${s.unjudged ? `, ${s.unjudged} unjudged` : ''}, ${s.errored} errored · ${duration(r.durationMs)}`,
    '',
    `- Backend: ${prose(backend)}`,
    `- Models: ${r.summaries.models.map((m) => code(m.key)).join(', ')}`,
    `- Configurations: ${r.summaries.configs.map((c) => code(configLabel(c.key))).join(', ')}`,
    `- Started: ${prose(r.startedAt)}`,
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
  const unjudged = s.unjudged > 0 ? ` ? ${s.unjudged} unjudged` : '';
  return `${s.passed}/${judged}${mark}${unjudged}${errors}`;
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
    ...table(['Scenario', ...columns.map((c) => prose(modelConfigLabel(c.model, c.configKey)))], rows),
    '',
    'Passed of judged trials; ✗ some failed; ? unjudged trials (no check applied) and ⚠ errored trials (infrastructure) are not counted.',
  ];
}

/** `50% [20–80%], 4 cells (1 too few)` */
function passK(e: PassKEstimate | undefined, value: number | null): string {
  if (!e) return value === null ? '–' : percent(value);
  const few = e.cellsTooFew ? ` (${e.cellsTooFew} too few)` : '';
  const cells = `${e.cells} cell${e.cells === 1 ? '' : 's'}${few}`;
  return e.value === null ? `– · ${cells}` : `${percent(e.value)} [${percentInterval(e)}] · ${cells}`;
}

function rollup(title: string, label: string, groups: KeyedSummary[], ks: string[], name: (key: string) => string): string[] {
  const rows = groups.map(({ key, summary: s }) => [
    code(name(key)),
    `${s.trials}${s.unjudged ? ` (${s.unjudged} unjudged)` : ''}${s.errored ? ` (${s.errored} errored)` : ''}`,
    rateWithCount(s.passRate),
    percentInterval(s.passRate),
    ...ks.map((k) => passK(s.passHatKDetail?.[k], s.passHatK[k])),
  ]);
  return [
    `### ${title}`,
    '',
    ...table([label, 'Trials', 'Pass rate', '95% CI', ...ks.map((k) => `pass^${k}`)], rows),
    '',
    'pass^k: the mean over cells with at least k judged trials, with its 95% bootstrap interval and the cells it rests on.',
  ];
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
    ...(measuredReloads(r.summaries.run)
      ? [
          '',
          `Reloads inside measured turns: ${measuredReloads(r.summaries.run)} (${code('model_reloaded')}): those turns' latency includes a model load.`,
        ]
      : []),
  ];
}

function failureItem(t: ReportTrial): string[] {
  const where = `${code(t.scenarioId)} · ${prose(modelConfigLabel(t.model, t.configKey))} · trial ${t.trial}`;
  if (t.status === 'error') return [`- **ERROR** ${where}: ${prose(t.error ?? 'unknown error')}`];
  if (t.status === 'unjudged') return [`- **UNJUDGED** ${where}: ${prose(t.error ?? 'no check applied')}`];
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
  const unjudged = problems.filter((t) => t.status === 'unjudged').length;
  const errored = problems.length - failed - unjudged;
  return [
    '### Failures',
    '',
    '<details>',
    `<summary>${failed} failed, ${errored} errored${unjudged ? `, ${unjudged} unjudged` : ''}</summary>`,
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

function side(s: ComparisonSide): string {
  if (!s.trials) return '–';
  const apart = [s.errored ? `${s.errored} errored` : '', s.unjudged ? `${s.unjudged} unjudged` : ''].filter(Boolean).join(', ');
  return `${rateWithCount(s.passRate)}${apart ? ` (+${apart})` : ''}`;
}

function comparisonRow(level: string, name: string, c: ComparisonRow): string[] {
  const diff = c.difference === null ? '–' : points(c.difference);
  const ci = c.differenceCi ? ` [${points(c.differenceCi.lo)}, ${points(c.differenceCi.hi)}]` : '';
  const verdict =
    c.status === 'compared'
      ? c.verdict === 'no_significant_change'
        ? 'no significant change'
        : `**${c.verdict}**`
      : c.status === 'only_in_a' || c.status === 'only_in_b'
        ? `only in ${c.status === 'only_in_a' ? 'baseline' : 'this run'}`
        : `${c.status === 'changed' ? 'changed, ' : ''}not compared: ${c.reason}`;
  return [
    level,
    name,
    side(c.a),
    side(c.b),
    diff + ci,
    c.pValue === null ? '–' : pValue(c.pValue),
    c.holm === null ? '–' : pValue(c.holm),
    c.q === null ? '–' : pValue(c.q),
    c.test === 'mcnemar_exact' ? 'McNemar' : c.test === 'fisher_exact' ? 'Fisher' : '–',
    verdict,
  ];
}

function comparison(r: ReportInput): string[] {
  if (!r.comparison) return [];
  const { baselineRunId, result } = r.comparison;
  // cells with a finding, or without a verdict (and why); unchanged ones are counted, not listed
  const listed = result.cells.filter((c) => c.verdict !== 'no_significant_change');
  const cellName = (key: string) => {
    const c = r.summaries.cells.find((x) => x.key === key);
    return c ? `${code(c.scenarioId)} · ${modelConfigLabel(c.model, c.configKey)}` : code(key);
  };
  const rows = [
    comparisonRow('run', 'all', result.run),
    ...result.configs.map((c) => comparisonRow('configuration', code(configLabel(c.key)), c)),
    ...result.models.map((c) => comparisonRow('model', code(c.key), c)),
    ...listed.map((c) => comparisonRow('cell', cellName(c.key), c)),
  ];
  const unchanged = result.cells.length - listed.length;
  return [
    `### Compared with ${code(baselineRunId)}`,
    '',
    ...table(['Level', 'Group', 'Before', 'After', 'Δ', 'p', 'Holm p', 'q (BH)', 'Test', 'Verdict'], rows),
    '',
    `${comparisonSummaryLine(result)}.`,
    '',
    `${unchanged ? `${unchanged} of ${result.cells.length} cells without significant change not listed. ` : ''}Fisher for independent runs, McNemar where trials pair by seed; Δ with its 95% Newcombe interval; verdicts from Holm-adjusted p.`,
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
