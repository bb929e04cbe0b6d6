// Property test of the report writers: random text — CDATA terminators, control characters, NUL,
// lone surrogates, markup, quotes, backticks, pipes, line breaks — through every free-text field of a
// run, and the JUnit output must parse strictly (XML 1.0) with the text intact, the Markdown tables
// keep their columns and no text escape its code span. Seeded: a failure names its case, and reruns.
import { cellKey } from '../statistics/grouping';
import { seededRandom } from '../../common/seeded-random';
import { summarizeAll } from '../statistics/summarize';
import { toJUnit } from './junit-report';
import { code, toMarkdown } from './markdown-report';
import type { ReportInput } from './report-input';
import { buildTrials } from './report.test-kit';
import { xmlChars } from './xml-writer';
import { childrenNamed, parseXml } from './xml.test-kit';

const PIECES = [']]>', ']]', '<![CDATA[', '<', '>', '&', '&amp;', '"', "'", '`', '``', '```', '|', '\\', '\\|', '\n', '\r', '\r\n', '\t'];
const CASES = 600;

function randomText(random: () => number): string {
  const n = Math.floor(random() * 12);
  let s = '';
  for (let i = 0; i < n; i++) {
    const r = random();
    if (r < 0.4) s += PIECES[Math.floor(random() * PIECES.length)];
    else if (r < 0.55)
      s += String.fromCharCode(Math.floor(random() * 0x20)); // C0 controls, NUL included
    else if (r < 0.65)
      s += String.fromCharCode(0xd800 + Math.floor(random() * 0x800)); // a lone surrogate
    else if (r < 0.7) s += ['\ufffe', '\uffff', '\u{1f600}', '\u2028', 'é'][Math.floor(random() * 5)];
    else s += 'abc xyz*_#'.charAt(Math.floor(random() * 10));
  }
  return s;
}

// the statistics of one cell of these statuses, computed once: only the names change between cases
const BASE = summarizeAll(buildTrials('run', [{ scenarioId: 's', model: 'm', configKey: '', statuses: 'PFEU' }]).outcomes, { ks: [1, 2] });

function hostileReport(random: () => number): ReportInput {
  const text = () => randomText(random);
  const { trials } = buildTrials('run', [
    {
      scenarioId: `s${text()}`,
      model: `m${text()}`,
      configKey: text(),
      statuses: 'PFEU',
      failed: { 2: [{ expectation: text(), passed: false, detail: text() }] },
      errors: { 3: text(), 4: text() },
    },
  ]);
  return {
    runId: text(),
    startedAt: text(),
    durationMs: 1,
    backend: { kind: 'ollama', host: text() },
    passed: 1,
    failed: 1,
    unjudged: 1,
    errored: 1,
    notRun: 1,
    mode: 'live',
    models: [],
    configurations: [],
    trialsPerCell: 4,
    stoppedBy: text(),
    trials,
    summaries: {
      run: BASE.run,
      cells: [
        {
          ...BASE.cells[0],
          key: cellKey(trials[0]),
          scenarioId: trials[0].scenarioId,
          model: trials[0].model,
          configKey: trials[0].configKey,
        },
      ],
      models: [{ key: trials[0].model, summary: BASE.run }],
      configs: [{ key: trials[0].configKey, summary: BASE.run }],
    },
  };
}

/** a GFM table row's cells: split at pipes without a backslash before them (as cmark-gfm does) */
function rowCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  for (let i = 1; i < line.length - 1; i++) {
    if (line[i] === '|' && line[i - 1] !== '\\') {
      cells.push(cell);
      cell = '';
    } else cell += line[i];
  }
  return [...cells, cell].map((c) => c.replace(/\\\|/g, '|'));
}

/** CommonMark code spans of one line, and what is left outside them (backslash escapes kept out) */
function codeSpans(line: string): { spans: string[]; outside: string } {
  const spans: string[] = [];
  let outside = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] === '\\' && i + 1 < line.length && /[!-/:-@[-`{-~]/.test(line[i + 1])) {
      i += 2; // an escaped punctuation character is literal
      continue;
    }
    if (line[i] !== '`') {
      outside += line[i++];
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n++;
    // the closer: the next run of exactly n backticks
    let j = i + n;
    let close = -1;
    while (j < line.length) {
      if (line[j] !== '`') {
        j++;
        continue;
      }
      let m = 0;
      while (line[j + m] === '`') m++;
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close < 0) {
      outside += '`'.repeat(n); // a run without its closer: a code span broke open
      i += n;
      continue;
    }
    let content = line.slice(i + n, close);
    if (/^ .* $/s.test(content) && !/^ +$/.test(content)) content = content.slice(1, -1);
    spans.push(content);
    i = close + n;
  }
  return { spans, outside };
}

describe('report writers on random text', () => {
  const random = seededRandom(36);
  const reports = Array.from({ length: CASES }, () => hostileReport(random));

  it('writes JUnit that a strict XML 1.0 parser reads, with the messages intact', () => {
    reports.forEach((r, n) => {
      let root;
      try {
        root = parseXml(toJUnit(r));
      } catch (e) {
        throw new Error(`case ${n}: ${(e as Error).message}`);
      }
      const [testcase] = childrenNamed(childrenNamed(root, 'testsuite')[0], 'testcase');
      const failed = r.trials.find((t) => t.status === 'failed')!.failedExpectations[0];
      expect(childrenNamed(testcase, 'failure')[0].text).toContain(xmlChars(`✗ ${failed.expectation}`));
      expect(childrenNamed(testcase, 'error')[0].text).toBe(xmlChars(`trial 3: ${r.trials[2].error}`));
      expect(testcase.attributes.classname).toBe(xmlChars(r.trials[0].scenarioId));
    });
  });

  it('keeps every Markdown table row to its header’s columns and nothing outside code spans but escaped text', () => {
    reports.forEach((r, n) => {
      const lines = toMarkdown(r).split('\n');
      let columns = 0;
      lines.forEach((line, i) => {
        const where = `case ${n}, line ${i + 1}: ${JSON.stringify(line)}`;
        if (line.startsWith('|')) {
          const cells = rowCells(line);
          if (!lines[i - 1]?.startsWith('|')) columns = cells.length;
          expect([where, cells.length]).toEqual([where, columns]);
          for (const c of cells) expect([where, codeSpans(c).outside.includes('`')]).toEqual([where, false]);
        } else {
          const { outside } = codeSpans(line);
          expect([where, outside.includes('`')]).toEqual([where, false]);
          if (!/^<\/?(details|summary)>/.test(line)) expect([where, outside.includes('<')]).toEqual([where, false]);
        }
      });
    });
  });

  it('puts any one-line text in a code span that gives it back whole', () => {
    const r = seededRandom(3600);
    for (let n = 0; n < CASES; n++) {
      const s = randomText(r).replace(/\s*[\r\n]\s*/g, ' ');
      const spans = codeSpans(code(s)).spans;
      expect([n, spans]).toEqual([n, [s === '' ? ' ' : s]]);
    }
  });
});
