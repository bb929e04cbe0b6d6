// `loupe eval compare RUN_A [RUN_B]`: per cell, model and configuration, the difference in pass rate
// with a paired test where trials pair (McNemar, exact) and Fisher's exact test where they do not,
// and a verdict. RUN_A is the baseline. With --profiles A,B (or --config-a/--config-b) two
// configurations are compared the same way — within one run when RUN_B is left out.
import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import type { Comparison } from '../../eval/statistics/statistics-types';
import type { ConfigurationSelector } from '../../eval/statistics/select-configuration';
import { lazy } from '../lazy';
import { rateWithInterval } from '../results-table';
import { UsageError } from './eval.command';

function row(level: string, c: Comparison): string[] {
  const diff = c.difference === null ? '–' : `${c.difference >= 0 ? '+' : ''}${(c.difference * 100).toFixed(1)} pt`;
  return [
    level,
    c.key,
    rateWithInterval(c.a),
    rateWithInterval(c.b),
    diff,
    c.pValue === null ? '–' : c.pValue.toPrecision(2),
    c.test,
    c.verdict.replace(/_/g, ' '),
  ];
}

export function registerCompareCommand(evalCommand: Command, getConfig: () => LoupeConfig): void {
  evalCommand
    .command('compare')
    .description('Compare two eval runs: per cell, model and configuration, with paired tests and verdicts (A is the baseline)')
    .argument('<runA>', 'the baseline run id')
    .argument('[runB]', 'the run compared with it (default: runA, to compare two configurations of one run)')
    .option('--profiles <a,b>', 'compare the trials run under loop profile a (the baseline) with those under b')
    .option('--config-a <key>', 'the configuration of runA to compare (its key, e.g. max_tool_iterations=10)')
    .option('--config-b <key>', 'the configuration of runB to compare it with')
    .option('--json', 'machine-readable')
    .option('--alpha <p>', 'significance level', (v) => Number(v), 0.05)
    .action(
      async (
        runA: string,
        runBArg: string | undefined,
        opts: { json?: boolean; alpha: number; profiles?: string; configA?: string; configB?: string },
      ) => {
        if (!(opts.alpha > 0 && opts.alpha < 1)) throw new UsageError(`--alpha ${opts.alpha}: expected a number between 0 and 1`);
        const selectors = selectorsOf(opts);
        const runB = runBArg ?? runA;
        if (runB === runA && !selectors)
          throw new UsageError('compare a run with itself only with --profiles a,b or --config-a/--config-b');
        const { compareRuns, outcomesUnder } = lazy.reports();
        const result = await lazy.appContext().withAppContext(
          getConfig(),
          async (app) => {
            const runs = app.get(lazy.evalRepository().EvalRepository);
            for (const id of new Set([runA, runB])) if (!(await runs.getRun(id))) throw new UsageError(`no eval run ${id}`);
            let [a, b] = [await runs.outcomesOf(runA), await runs.outcomesOf(runB)];
            if (selectors) {
              [a, b] = [outcomesUnder(a, selectors[0]), outcomesUnder(b, selectors[1])];
              for (const [side, list, sel] of [
                ['A', a, selectors[0]],
                ['B', b, selectors[1]],
              ] as const) {
                if (!list.length) throw new UsageError(`run ${side === 'A' ? runA : runB} has no trials under ${JSON.stringify(sel)}`);
              }
            }
            return compareRuns(a, b, { alpha: opts.alpha });
          },
          { telemetry: false },
        );
        if (opts.json) {
          process.stdout.write(
            `${JSON.stringify({ baselineRunId: runA, runId: runB, ...(selectors ? { baseline: selectors[0], compared: selectors[1] } : {}), comparison: result }, null, 2)}\n`,
          );
          return;
        }
        const rows = [
          row('run', result.run),
          ...result.models.map((c) => row('model', c)),
          ...result.configs.map((c) => row('config', c)),
          ...result.cells.map((c) => row('cell', c)),
        ];
        const header = ['LEVEL', 'KEY', `A ${runA.slice(0, 8)}`, `B ${runB.slice(0, 8)}`, 'DIFF', 'P', 'TEST', 'VERDICT'];
        const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
        for (const r of [header, ...rows])
          process.stdout.write(
            `${r
              .map((c, i) => c.padEnd(widths[i]))
              .join('  ')
              .trimEnd()}\n`,
          );
      },
    );
}

function selectorsOf(opts: {
  profiles?: string;
  configA?: string;
  configB?: string;
}): [ConfigurationSelector, ConfigurationSelector] | undefined {
  if (opts.profiles !== undefined) {
    if (opts.configA !== undefined || opts.configB !== undefined)
      throw new UsageError('give --profiles or --config-a/--config-b, not both');
    const names = opts.profiles.split(',').map((p) => p.trim());
    if (names.length !== 2 || names.some((n) => !n)) throw new UsageError(`--profiles ${opts.profiles}: expected two profiles, a,b`);
    const { LOOP_PROFILE_NAMES } = lazy.loopSettings();
    for (const n of names)
      if (!(LOOP_PROFILE_NAMES as readonly string[]).includes(n))
        throw new UsageError(`--profiles: unknown loop profile "${n}"; profiles: ${LOOP_PROFILE_NAMES.join(', ')}`);
    return [{ profile: names[0] }, { profile: names[1] }];
  }
  if ((opts.configA === undefined) !== (opts.configB === undefined)) throw new UsageError('give both --config-a and --config-b');
  return opts.configA !== undefined ? [{ configKey: opts.configA }, { configKey: opts.configB! }] : undefined;
}
