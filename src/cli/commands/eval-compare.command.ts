// `loupe eval compare RUN_A RUN_B`: per cell, model and configuration, the difference in pass rate
// with a paired test where trials pair (McNemar, exact) and Fisher's exact test where they do not,
// and a verdict. RUN_A is the baseline.
import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import type { Comparison } from '../../eval/statistics/statistics-types';
import { lazy } from '../lazy';
import { rateWithInterval } from '../results-table';
import { UsageError } from './eval.command';

function row(level: string, c: Comparison): string[] {
  const diff = c.difference === null ? '–' : `${c.difference >= 0 ? '+' : ''}${(c.difference * 100).toFixed(1)} pt`;
  return [level, c.key, rateWithInterval(c.a), rateWithInterval(c.b), diff, c.pValue === null ? '–' : c.pValue.toPrecision(2), c.test, c.verdict.replace(/_/g, ' ')];
}

export function registerCompareCommand(evalCommand: Command, getConfig: () => LoupeConfig): void {
  evalCommand
    .command('compare')
    .description('Compare two eval runs: per cell, model and configuration, with paired tests and verdicts (A is the baseline)')
    .argument('<runA>', 'the baseline run id')
    .argument('<runB>', 'the run compared with it')
    .option('--json', 'machine-readable')
    .option('--alpha <p>', 'significance level', (v) => Number(v), 0.05)
    .action(async (runA: string, runB: string, opts: { json?: boolean; alpha: number }) => {
      if (!(opts.alpha > 0 && opts.alpha < 1)) throw new UsageError(`--alpha ${opts.alpha}: expected a number between 0 and 1`);
      const { compareRuns } = lazy.reports();
      const result = await lazy.appContext().withAppContext(getConfig(), async (app) => {
        const runs = app.get(lazy.evalRepository().EvalRepository);
        for (const id of [runA, runB]) if (!(await runs.getRun(id))) throw new UsageError(`no eval run ${id}`);
        return compareRuns(await runs.outcomesOf(runA), await runs.outcomesOf(runB), { alpha: opts.alpha });
      }, { telemetry: false });
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ baselineRunId: runA, runId: runB, comparison: result }, null, 2)}\n`);
        return;
      }
      const rows = [row('run', result.run), ...result.models.map((c) => row('model', c)), ...result.configs.map((c) => row('config', c)), ...result.cells.map((c) => row('cell', c))];
      const header = ['LEVEL', 'KEY', `A ${runA.slice(0, 8)}`, `B ${runB.slice(0, 8)}`, 'DIFF', 'P', 'TEST', 'VERDICT'];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
      for (const r of [header, ...rows]) process.stdout.write(`${r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()}\n`);
    });
}
