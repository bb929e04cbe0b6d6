// `loupe eval compare RUN_A [RUN_B]`: per cell, model and configuration, the difference in pass rate
// with Fisher's exact test for independent trials (McNemar's where trials pair by seed), corrected
// over every test made, and a verdict. RUN_A is the baseline. With --profiles A,B (or
// --config-a/--config-b) two configurations are compared the same way, within one run when RUN_B is
// left out. Exit 1 exactly when a regression survives Holm's correction.
import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import type { RunComparison } from '../../eval/statistics/comparison-types';
import type { ConfigurationSelector } from '../../eval/statistics/select-configuration';
import { formatComparison } from '../comparison-table';
import { EXIT, setVerdict } from '../exit-codes';
import { lazy } from '../lazy';
import { runIdArg, UsageError } from './eval.command';

/** columns named by what differs: the runs, the configurations, or both */
function labelsOf(runA: string, runB: string, selectors?: [ConfigurationSelector, ConfigurationSelector]): { a: string; b: string } {
  const name = (s: ConfigurationSelector) => ('profile' in s ? s.profile : s.configKey || '(defaults)');
  if (!selectors) return { a: runA.slice(0, 8), b: runB.slice(0, 8) };
  if (runA === runB) return { a: name(selectors[0]), b: name(selectors[1]) };
  return { a: `${runA.slice(0, 8)} ${name(selectors[0])}`, b: `${runB.slice(0, 8)} ${name(selectors[1])}` };
}

/** bad input, not a finding: nothing in common to compare */
function assertMatched(result: RunComparison, runA: string, runB: string): void {
  if (result.matchedCells > 0) return;
  const n = (s: string) => result.cells.filter((c) => c.status === s).length;
  const what = runA === runB ? `the two configurations of run ${runA}` : `runs ${runA} and ${runB}`;
  throw new UsageError(
    `${what} have no cell in common to compare (same scenario, model and configuration, and the same scenario file and tool definitions): ` +
      `${n('only_in_a')} only in A, ${n('only_in_b')} only in B, ${n('changed')} changed`,
  );
}

export function registerCompareCommand(evalCommand: Command, getConfig: () => LoupeConfig): void {
  evalCommand
    .command('compare')
    .description(
      "Compare two eval runs: per cell, model and configuration, Fisher's exact test (McNemar's for trials paired by seed), Holm- and BH-corrected verdicts (A is the baseline); exit 1 on a corrected regression",
    )
    .argument('<runA>', 'the baseline run id')
    .argument('[runB]', 'the run compared with it (default: runA, to compare two configurations of one run)')
    .option('--profiles <a,b>', 'compare the trials run under loop profile a (the baseline) with those under b')
    .option('--config-a <key>', 'the configuration of runA to compare (its key, e.g. max_tool_iterations=10)')
    .option('--config-b <key>', 'the configuration of runB to compare it with')
    .option('--json', 'machine-readable')
    .option('--alpha <p>', 'family-wise significance level (Holm)', (v) => Number(v), 0.05)
    .action(
      async (
        runAArg: string,
        runBArg: string | undefined,
        opts: { json?: boolean; alpha: number; profiles?: string; configA?: string; configB?: string },
      ) => {
        if (!(opts.alpha > 0 && opts.alpha < 1)) throw new UsageError(`--alpha ${opts.alpha}: expected a number between 0 and 1`);
        const runA = runIdArg(runAArg);
        const runB = runIdArg(runBArg ?? runA);
        const selectors = selectorsOf(opts);
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
        assertMatched(result, runA, runB);
        const labels = labelsOf(runA, runB, selectors);
        if (opts.json)
          process.stdout.write(
            `${JSON.stringify({ baselineRunId: runA, runId: runB, labels, ...(selectors ? { baseline: selectors[0], compared: selectors[1] } : {}), comparison: result }, null, 2)}\n`,
          );
        else process.stdout.write(`${formatComparison(result, labels)}\n`);
        setVerdict(result.gate.fires ? EXIT.FAILED : EXIT.OK);
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
