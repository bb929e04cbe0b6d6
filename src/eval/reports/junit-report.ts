// The run as JUnit XML for CI: one testcase per scenario × model × configuration, as promptfoo and
// the prior-art survey suggest, with the trial counts and rates as properties. A cell with any
// failed trial is a failure (flaky is not passing); errored trials (infrastructure) are an error;
// a cell whose trials no check applied to is skipped, with the reason — never a pass.
import type { CellSummary } from '../statistics/summarize';
import type { Summary } from '../statistics/statistics-types';
import { decimal, modelConfigLabel, expectationLines, trialsOfCell } from './report-format';
import { provenanceProperties } from './provenance-properties';
import type { ReportInput } from './report-input';
import { renderXml, type XmlNode } from './xml-writer';

export interface JUnitOptions {
  /** one testsuite for the whole run (default), or one per scenario */
  suites?: 'run' | 'scenario';
}

type Properties = Array<[string, string]>;

function backendLabel(r: ReportInput): string {
  return r.backend.kind === 'standin' ? 'Ollama stand-in' : `Ollama at ${r.backend.host}`;
}

/** `0.667 [0.208, 0.939]`: the rate and its Wilson interval, as plain decimals */
function rateProperty(p: Summary['passRate']): string {
  return p.rate === null ? 'n/a' : `${decimal(p.rate)} [${decimal(p.lo)}, ${decimal(p.hi)}]`;
}

function summaryProperties(props: Properties, s: Summary): void {
  props.push(
    ['trials', String(s.trials)],
    ['passed', String(s.passed)],
    ['failed', String(s.failed)],
    ['unjudged', String(s.unjudged)],
    ['errored', String(s.errored)],
    ['pass_rate', rateProperty(s.passRate)],
  );
  for (const [k, v] of Object.entries(s.passHatK)) {
    props.push([`pass^${k}`, decimal(v)]);
    const d = s.passHatKDetail?.[k];
    if (!d) continue;
    if (d.lo !== null) props.push([`pass^${k}.interval`, `[${decimal(d.lo)}, ${decimal(d.hi)}]`]);
    props.push([`pass^${k}.cells`, `${d.cells}${d.cellsTooFew ? ` (${d.cellsTooFew} with too few judged trials)` : ''}`]);
  }
  for (const [key, p] of Object.entries(s.pathologies)) {
    props.push([`pathology.${key}`, `${p.successes}/${p.n} trials, rate ${rateProperty(p)}, events ${p.events}`]);
  }
}

function propertiesNode(props: Properties): XmlNode {
  return {
    name: 'properties',
    children: props.map(([name, value]) => ({
      name: 'property',
      attributes: [
        ['name', name],
        ['value', value],
      ],
    })),
  };
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function caseOf(r: ReportInput, c: CellSummary): { node: XmlNode; counts: Counts } {
  const trials = trialsOfCell(r.trials, c.scenarioId, c.model, c.configKey);
  const attributes: Array<[string, string]> = [
    ['classname', c.scenarioId],
    ['name', modelConfigLabel(c.model, c.configKey)],
  ];
  if (trials.length) attributes.push(['file', trials[0].file], ['time', String(trials.reduce((s, t) => s + t.durationMs, 0) / 1000)]);
  const props: Properties = [];
  summaryProperties(props, c.summary);
  props.push(...provenanceProperties(trials));
  const children: XmlNode[] = [propertiesNode(props)];
  const s = c.summary;
  if (s.failed > 0) {
    const failed = trials.filter((t) => t.status === 'failed');
    children.push({
      name: 'failure',
      attributes: [
        ['message', `${s.failed} of ${s.passed + s.failed} judged trials failed`],
        ['type', 'expectations'],
      ],
      text: failed
        .map((t) => [`trial ${t.trial} (session ${t.sessionId ?? 'none'}):`, ...expectationLines(t).map((l) => `  ${l}`)].join('\n'))
        .join('\n'),
    });
  }
  if (s.errored > 0) {
    const errored = trials.filter((t) => t.status === 'error');
    children.push({
      name: 'error',
      attributes: [
        ['message', `${s.errored} of ${s.trials} trials errored`],
        ['type', 'infrastructure'],
      ],
      text: errored.map((t) => `trial ${t.trial}: ${t.error ?? 'unknown error'}`).join('\n'),
    });
  }
  // skipped only when nothing failed or errored: CI shows one verdict per testcase
  const skipped = s.unjudged > 0 && !s.failed && !s.errored;
  if (skipped) {
    const reasons = [...new Set(trials.filter((t) => t.status === 'unjudged').map((t) => t.error ?? 'no check applied'))];
    children.push({ name: 'skipped', attributes: [['message', `${s.unjudged} of ${s.trials} trials unjudged: ${reasons.join('; ')}`]] });
  }
  const counts = { tests: 1, failures: s.failed > 0 ? 1 : 0, errors: s.errored > 0 ? 1 : 0, skipped: skipped ? 1 : 0 };
  return { node: { name: 'testcase', attributes, children }, counts };
}

function runProperties(props: Properties, r: ReportInput): void {
  props.push(['run_id', r.runId], ['backend', backendLabel(r)]);
  if (r.seed !== undefined) props.push(['seed', r.seed === null ? 'none' : String(r.seed)]);
  if (r.notRun) props.push(['not_run', String(r.notRun)]);
  if (r.stoppedBy) props.push(['stopped_by', r.stoppedBy]);
}

function add(a: Counts, b: Counts): Counts {
  return { tests: a.tests + b.tests, failures: a.failures + b.failures, errors: a.errors + b.errors, skipped: a.skipped + b.skipped };
}

const NONE: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };

const countAttributes = (c: Counts): Array<[string, string]> => [
  ['tests', String(c.tests)],
  ['failures', String(c.failures)],
  ['errors', String(c.errors)],
  ['skipped', String(c.skipped)],
];

function suite(name: string, head: Array<[string, string]>, props: Properties, cells: CellSummary[], r: ReportInput) {
  const cases = cells.map((c) => caseOf(r, c));
  const counts = cases.reduce((sum, c) => add(sum, c.counts), NONE);
  const node: XmlNode = {
    name: 'testsuite',
    attributes: [['name', name], ...head, ...countAttributes(counts)],
    children: [propertiesNode(props), ...cases.map((c) => c.node)],
  };
  return { node, counts };
}

export function toJUnit(report: ReportInput, opts: JUnitOptions = {}): string {
  const suites: Array<{ node: XmlNode; counts: Counts }> = [];
  if ((opts.suites ?? 'run') === 'run') {
    const props: Properties = [];
    runProperties(props, report);
    summaryProperties(props, report.summaries.run);
    const head: Array<[string, string]> = [
      ['timestamp', report.startedAt],
      ['time', String(report.durationMs / 1000)],
    ];
    suites.push(suite(`loupe eval ${report.runId}`, head, props, report.summaries.cells, report));
  } else {
    for (const scenarioId of [...new Set(report.summaries.cells.map((c) => c.scenarioId))]) {
      const props: Properties = [];
      runProperties(props, report);
      const cells = report.summaries.cells.filter((x) => x.scenarioId === scenarioId);
      suites.push(suite(scenarioId, [['timestamp', report.startedAt]], props, cells, report));
    }
  }
  const total = suites.reduce((sum, s) => add(sum, s.counts), NONE);
  return renderXml({
    name: 'testsuites',
    attributes: [['name', `loupe eval ${report.runId}`], ...countAttributes(total)],
    children: suites.map((s) => s.node),
  });
}
