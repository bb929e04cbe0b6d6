// The study's matrix (issue 39, item 5): personas × loop profiles from one `loupe eval --json`
// report's cells, pooled over the tasks (each profile ran the same tasks and trials, so the pooled
// rates compare like with like). Per persona, every pair of profiles is tested with Fisher's exact
// test, Holm-adjusted within the persona; the pathology shares say why rates differ. Pure.
import { fisherExact } from '../eval/statistics/exact-tests';
import { holmAdjust } from '../eval/statistics/multiplicity';
import { wilson } from '../eval/statistics/proportion';
import type { PathologyKey, Proportion } from '../eval/statistics/statistics-types';
import type { CellSummary } from '../eval/statistics/summarize';

export interface StudyCell {
  model: string;
  configKey: string;
  passRate: Proportion;
  /** share of the trials that ran showing each pathology, pooled over the tasks */
  pathologies: Partial<Record<PathologyKey, Proportion>>;
  iterations: number | null;
}

export interface StudyRow {
  model: string;
  cells: StudyCell[];
  /** every pair of configurations, Fisher exact p and Holm-adjusted within the model */
  pairs: Array<{ a: string; b: string; p: number; adjusted: number }>;
  /** pairs whose adjusted p < alpha */
  significant: number;
}

interface Pooled {
  model: string;
  configKey: string;
  passed: number;
  judged: number;
  ran: number;
  path: Map<string, number>;
  iters: number[];
}

export function studyMatrix(cells: readonly CellSummary[], alpha = 0.05): StudyRow[] {
  const pooled = new Map<string, Pooled>();
  for (const c of cells) {
    const key = `${c.model}\u0000${c.configKey}`;
    const entry = pooled.get(key) ?? {
      model: c.model,
      configKey: c.configKey,
      passed: 0,
      judged: 0,
      ran: 0,
      path: new Map<string, number>(),
      iters: [],
    };
    entry.passed += c.summary.passRate.successes;
    entry.judged += c.summary.passRate.n;
    entry.ran += c.summary.trials - c.summary.errored;
    for (const [k, p] of Object.entries(c.summary.pathologies)) {
      // a cell lists the pathologies it showed; the share is over every trial that ran in the pooled cell
      entry.path.set(k, (entry.path.get(k) ?? 0) + p!.successes);
    }
    if (c.summary.meanIterations !== null) entry.iters.push(c.summary.meanIterations);
    pooled.set(key, entry);
  }
  const models = [...new Set([...pooled.values()].map((e) => e.model))].sort();
  return models.map((model) => {
    const cellsOf: StudyCell[] = [...pooled.values()]
      .filter((e) => e.model === model)
      .sort((a, b) => a.configKey.localeCompare(b.configKey))
      .map((e) => ({
        model,
        configKey: e.configKey,
        passRate: wilson(e.passed, e.judged),
        pathologies: Object.fromEntries([...e.path].map(([k, s]) => [k, wilson(Math.min(s, e.ran), e.ran)])),
        iterations: e.iters.length ? e.iters.reduce((a, x) => a + x, 0) / e.iters.length : null,
      }));
    const raw: Array<{ a: string; b: string; p: number }> = [];
    for (let i = 0; i < cellsOf.length; i++)
      for (let j = i + 1; j < cellsOf.length; j++) {
        const [x, y] = [cellsOf[i].passRate, cellsOf[j].passRate];
        raw.push({ a: cellsOf[i].configKey, b: cellsOf[j].configKey, p: fisherExact(x.successes, x.n, y.successes, y.n) ?? 1 });
      }
    const adjusted = raw.length ? holmAdjust(raw.map((r) => r.p)) : [];
    const pairs = raw.map((r, i) => ({ ...r, adjusted: adjusted[i] }));
    return { model, cells: cellsOf, pairs, significant: pairs.filter((p) => p.adjusted < alpha).length };
  });
}

const rate = (p: Proportion) => (p.rate === null ? '-' : `${p.rate.toFixed(2)} (${p.lo!.toFixed(2)}–${p.hi!.toFixed(2)})`);
const label = (configKey: string) => configKey.replace(/^profile=/, '') || '(defaults)';

/** The pass-rate matrix as Markdown: a row per persona, a column per configuration, and the pairs that differ. */
export function studyMarkdown(rows: readonly StudyRow[], pathologyKeys: readonly PathologyKey[]): string {
  const configs = [...new Set(rows.flatMap((r) => r.cells.map((c) => c.configKey)))];
  const lines = [
    `| persona | ${configs.map(label).join(' | ')} | profile pairs differing (Holm, α 0.05) |`,
    `|---|${configs.map(() => '---').join('|')}|---|`,
  ];
  for (const r of rows) {
    const cell = (k: string) => r.cells.find((c) => c.configKey === k);
    const smallest = [...r.pairs].sort((a, b) => a.adjusted - b.adjusted)[0];
    const why = smallest
      ? `; smallest adjusted p ${smallest.adjusted.toExponential(1)} (${label(smallest.a)} vs ${label(smallest.b)})`
      : '';
    lines.push(
      `| ${r.model} | ${configs.map((k) => (cell(k) ? rate(cell(k)!.passRate) : '-')).join(' | ')} | ${r.significant} of ${r.pairs.length}${why} |`,
    );
  }
  lines.push(
    '',
    `| persona | profile | ${pathologyKeys.join(' | ')} | mean iterations |`,
    `|---|---|${pathologyKeys.map(() => '---').join('|')}|---|`,
  );
  for (const r of rows)
    for (const c of r.cells)
      lines.push(
        `| ${r.model} | ${label(c.configKey)} | ${pathologyKeys.map((k) => (c.pathologies[k]?.rate ?? 0).toFixed(2)).join(' | ')} | ${c.iterations?.toFixed(1) ?? '-'} |`,
      );
  return `${lines.join('\n')}\n`;
}

/** The pathologies worth a column: those some cell shows in at least `minShare` of its trials. */
export function salientPathologies(rows: readonly StudyRow[], minShare = 0.05): PathologyKey[] {
  const keys = new Set<PathologyKey>();
  for (const r of rows)
    for (const c of r.cells)
      for (const [k, p] of Object.entries(c.pathologies)) if ((p?.rate ?? 0) >= minShare) keys.add(k as PathologyKey);
  return [...keys].sort();
}
