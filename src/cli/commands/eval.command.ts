import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import { ScenarioLoadError } from '../../eval/scenario/scenario-errors';
import { loadScenarios } from '../../eval/scenario/scenario-loader';
import { standinModelProblems } from '../../eval/standin-model-check';
import { lazy } from '../lazy';
import { EXIT, setVerdict } from '../exit-codes';
import { formatResultsTable, toJsonReport } from '../results-table';

export function registerEvalCommand(program: Command, getConfig: () => LoupeConfig): void {
  program
    .command('eval')
    .description('Run scenarios against the Ollama stand-in (or OLLAMA_HOST) and check what was recorded')
    .argument('[paths...]', 'scenario files or directories', ['scenarios'])
    .option('--json', 'print machine-readable results')
    .option('-m, --model <name...>', 'model(s) to run every scenario against')
    .option('-t, --trials <n>', 'trials per scenario and model', (v) => positiveInt(v, '--trials'), 1)
    .option('-c, --concurrency <n>', 'trials run at once', (v) => positiveInt(v, '--concurrency'), 1)
    .action(async (paths: string[], opts: { json?: boolean; model?: string[]; trials: number; concurrency: number }) => {
      // Bad input stops everything before anything runs (exit 2, thrown as ScenarioLoadError).
      const scenarios = loadScenarios(paths);
      const config = getConfig();
      if (!config.ollama.host) {
        const problems = standinModelProblems(scenarios, opts.model);
        if (problems.length) throw new ScenarioLoadError(problems);
      }
      const { ScenarioRunner } = lazy.runner();
      const report = await lazy.appContext().withAppContext(config, (app) =>
        app.get(ScenarioRunner).run(scenarios, {
          models: opts.model, trials: opts.trials, concurrency: opts.concurrency,
          // progress on stderr in every mode: stdout carries only the result (JSON or table)
          onTrialFinished: (t) =>
            process.stderr.write(`${t.status === 'passed' ? '✓' : t.status === 'failed' ? '✗' : '!'} ${t.scenarioId} [${t.model} #${t.trial}]\n`),
        }));
      process.stdout.write(opts.json ? `${JSON.stringify(toJsonReport(report), null, 2)}\n` : `${formatResultsTable(report)}\n`);
      setVerdict(report.failed || report.errored || report.notRun || report.stoppedBy ? EXIT.FAILED : EXIT.OK);
    });
}

export class UsageError extends Error {}

export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag}: expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
