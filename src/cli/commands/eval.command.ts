import * as fs from 'node:fs';
import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import { configurations, parseAxes } from '../../eval/run-plan';
import { ScenarioLoadError } from '../../eval/scenario/scenario-errors';
import { loadScenarios } from '../../eval/scenario/scenario-loader';
import { standinModelProblems } from '../../eval/standin-model-check';
import { evalProgress } from '../eval-progress';
import { EXIT, setVerdict } from '../exit-codes';
import { lazy } from '../lazy';
import { formatResultsTable, toJsonReport } from '../results-table';
import { registerCompareCommand } from './eval-compare.command';
import { printCoverage } from './eval-coverage';

interface EvalFlags {
  json?: boolean;
  model?: string[];
  models?: string[];
  trials: number;
  concurrency: number;
  set: string[];
  junit?: string;
  markdown?: string;
  baseline?: string;
  judge?: string;
  coverage?: boolean;
  specs?: string;
  writeCatalogue?: boolean;
}

export function registerEvalCommand(program: Command, getConfig: () => LoupeConfig): void {
  const evalCommand = program
    .command('eval')
    .enablePositionalOptions()
    .description(
      'Run scenarios (models × configurations × trials) against the Ollama stand-in or OLLAMA_HOST, check what was recorded, report with statistics',
    )
    .argument('[paths...]', 'scenario files or directories', ['scenarios'])
    .option('--json', 'print machine-readable results (with the statistics)')
    .option(
      '-m, --model <name...>',
      'model(s) to run every scenario against (space- or comma-separated)',
      (v: string, all: string[] | undefined) => [
        ...(all ?? []),
        ...v
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean),
      ],
    )
    .option('--models <a,b>', 'the same as --model, comma-separated', (v: string, all: string[] | undefined) => [
      ...(all ?? []),
      ...v
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    ])
    .option('-t, --trials <n>', 'trials per scenario, model and configuration', (v) => positiveInt(v, '--trials'), 1)
    .option('-c, --concurrency <n>', 'trials run at once', (v) => positiveInt(v, '--concurrency'), 1)
    .option(
      '--set <key=v1,v2>',
      'a configuration axis over a scenario config key (repeatable; axes multiply)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--junit <file>', 'also write a JUnit XML report (one testcase per scenario × model × configuration)')
    .option('--markdown <file>', 'also write a Markdown report for a pull request')
    .option('--baseline <run>', 'compare with an earlier run; exit 1 on a significant regression')
    .option(
      '--judge <how>',
      'auto: scripted runs by their expectations under the profiles they were written for, else by success criteria; success: every trial by its success criteria (one yardstick across profiles)',
      'auto',
    )
    .option('--coverage', "list the specs' Behavioral Examples with and without a scenario, and run nothing")
    .option('--specs <dir>', 'with --coverage: read the examples from this directory of specs instead of specs/behavioral-examples.json')
    .option('--write-catalogue', 'with --coverage --specs: rewrite specs/behavioral-examples.json from the specs')
    .action(async (paths: string[], opts: EvalFlags) => {
      // Bad input stops everything before anything runs (exit 2).
      const scenarios = loadScenarios(paths);
      if (opts.coverage) {
        setVerdict(printCoverage(scenarios, opts) ? EXIT.OK : EXIT.FAILED);
        return;
      }
      opts.model = opts.model || opts.models ? [...new Set([...(opts.model ?? []), ...(opts.models ?? [])])] : undefined;
      if (opts.judge !== 'auto' && opts.judge !== 'success') throw new UsageError(`--judge ${opts.judge}: expected auto or success`);
      const axes = parseAxes(opts.set);
      if (axes.problems.length) throw new UsageError(axes.problems.join('\n'));
      const config = getConfig();
      if (!config.ollama.host) {
        const problems = standinModelProblems(scenarios, opts.model);
        if (problems.length) throw new ScenarioLoadError(problems);
      }
      const { ScenarioRunner } = lazy.runner();
      // progress on stderr in every mode: stdout carries only the result (JSON or table)
      const progress = evalProgress();
      const report = await lazy
        .appContext()
        .withAppContext(config, async (app) => {
          if (opts.baseline && !(await app.get(lazy.evalRepository().EvalRepository).getRun(opts.baseline))) {
            throw new UsageError(`--baseline ${opts.baseline}: no such eval run`);
          }
          return app.get(ScenarioRunner).run(scenarios, {
            models: opts.model,
            trials: opts.trials,
            concurrency: opts.concurrency,
            configurations: configurations(axes.axes),
            baselineRunId: opts.baseline,
            judge: opts.judge as 'auto' | 'success',
            onTrialStarted: (n) => progress.started(n),
            onTrialFinished: (t) => progress.finished(t),
          });
        })
        .finally(() => progress.stop());
      process.stdout.write(opts.json ? `${JSON.stringify(toJsonReport(report), null, 2)}\n` : `${formatResultsTable(report)}\n`);
      const reports = lazy.reports();
      if (opts.junit) fs.writeFileSync(opts.junit, reports.toJUnit(report));
      if (opts.markdown) fs.writeFileSync(opts.markdown, reports.toMarkdown(report));
      const regressions = report.comparison ? reports.significantRegressions(report.comparison.result, { levels: ['run', 'model'] }) : [];
      for (const r of regressions) process.stderr.write(`REGRESSION ${r.level} ${r.key}: ${r.a.rate} → ${r.b.rate} (p = ${r.pValue})\n`);
      const lost = report.storage?.mismatched.length ?? 0;
      if (lost)
        process.stderr.write(
          `STORAGE MISMATCH: ${lost} session(s) in Postgres differ from what the journal recorded (see --json storage)\n`,
        );
      setVerdict(
        report.failed || report.errored || report.notRun || report.stoppedBy || regressions.length || lost ? EXIT.FAILED : EXIT.OK,
      );
    });
  registerCompareCommand(evalCommand, getConfig);
}

export class UsageError extends Error {}

export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag}: expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
