import { wilson } from '../eval/statistics/proportion';
import type { Summary } from '../eval/statistics/statistics-types';
import type { CellSummary } from '../eval/statistics/summarize';
import { salientPathologies, studyMarkdown, studyMatrix } from './fit-study';

function cell(scenarioId: string, model: string, profile: string, passed: number, trials: number, repeats = 0): CellSummary {
  const summary = {
    trials,
    passed,
    failed: trials - passed,
    unjudged: 0,
    errored: 0,
    passRate: wilson(passed, trials),
    pathologies: repeats ? { repeat_break: { ...wilson(repeats, trials), events: repeats } } : {},
    meanIterations: 5,
  } as unknown as Summary;
  return { key: `${scenarioId}|${model}|profile=${profile}`, scenarioId, model, configKey: `profile=${profile}`, summary };
}

describe('studyMatrix', () => {
  const cells = [
    // sim:a: loupe breaks its repeats and passes; corvid does not
    cell('t1', 'sim:a', 'loupe', 28, 30, 10),
    cell('t2', 'sim:a', 'loupe', 27, 30, 12),
    cell('t1', 'sim:a', 'corvid', 5, 30),
    cell('t2', 'sim:a', 'corvid', 6, 30),
    // sim:b: the same under both
    cell('t1', 'sim:b', 'loupe', 20, 30),
    cell('t2', 'sim:b', 'loupe', 21, 30),
    cell('t1', 'sim:b', 'corvid', 19, 30),
    cell('t2', 'sim:b', 'corvid', 22, 30),
  ];

  it('pools the tasks per persona × profile and tests every profile pair within a persona', () => {
    const rows = studyMatrix(cells);
    expect(rows.map((r) => r.model)).toEqual(['sim:a', 'sim:b']);
    const a = rows[0];
    expect(a.cells.map((c) => [c.configKey, c.passRate.successes, c.passRate.n])).toEqual([
      ['profile=corvid', 11, 60],
      ['profile=loupe', 55, 60],
    ]);
    expect(a.significant).toBe(1);
    expect(rows[1].significant).toBe(0);
    expect(rows[1].pairs[0].adjusted).toBeGreaterThan(0.5);
    // the pathology share is over every trial of the pooled cell, not only the cells that showed it
    expect(a.cells[1].pathologies.repeat_break).toMatchObject({ successes: 22, n: 60 });
  });

  it('renders the matrix and the pathology table as Markdown', () => {
    const rows = studyMatrix(cells);
    const keys = salientPathologies(rows);
    expect(keys).toEqual(['repeat_break']);
    const md = studyMarkdown(rows, keys);
    expect(md).toContain('| persona | corvid | loupe | profile pairs differing (Holm, α 0.05) |');
    expect(md).toMatch(/\| sim:a \| 0\.18 \(0\.\d\d–0\.\d\d\) \| 0\.92 \(0\.\d\d–0\.\d\d\) \| 1 of 1; smallest adjusted p /);
    expect(md).toContain('| sim:a | loupe | 0.37 | 5.0 |');
  });
});
