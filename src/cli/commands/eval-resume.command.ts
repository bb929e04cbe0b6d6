// `loupe eval resume RUN [paths…]`: finish a run that was killed — its finished trials kept, its
// interrupted ones rerun as new attempts (their partial sessions kept, marked interrupted), the rest
// run — then report the whole run as `loupe eval` would have.
import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import { loadScenarios } from '../../eval/scenario/scenario-loader';
import { evalProgress } from '../eval-progress';
import { setVerdict, signalExit } from '../exit-codes';
import { lazy } from '../lazy';
import { stopOnSignals } from '../signal-stop';
import { trialsRunHere } from '../trials-here';
import { positiveInt, printRunReport, runIdArg, UsageError } from './eval.command';

export function registerResumeCommand(evalCommand: Command, getConfig: () => LoupeConfig): void {
  evalCommand
    .command('resume')
    .description('Finish a killed or stopped run: finished trials kept, interrupted ones rerun, the rest run; then report it')
    .argument('<run>', 'the run id', runIdArg)
    .argument('[paths...]', "the run's scenario files or directories (default: the paths the run was given, else scenarios/)")
    .option('-c, --concurrency <n>', 'trials run at once (default: as the run was started)', (v) => positiveInt(v, '--concurrency'))
    .option('--force', 'resume a run still marked running by a process on another host that is known to be gone')
    .option('--json', 'print machine-readable results (with the statistics)')
    .option('--junit <file>', 'also write a JUnit XML report')
    .option('--markdown <file>', 'also write a Markdown report')
    .option('--allow-unjudged', 'exit 0 even when some trials were unjudged (no check applied to them; never counted as passes)')
    .action(
      async (
        runId: string,
        paths: string[],
        opts: { concurrency?: number; force?: boolean; json?: boolean; junit?: string; markdown?: string; allowUnjudged?: boolean },
      ) => {
        const { ScenarioRunner } = lazy.runner();
        const { ResumeError } = lazy.runResume();
        const progress = evalProgress();
        trialsRunHere(getConfig().home);
        const stop = stopOnSignals();
        const report = await lazy
          .appContext()
          .withAppContext(getConfig(), async (app) => {
            const run = await app.get(lazy.evalRepository().EvalRepository).getRun(runId);
            if (!run) throw new UsageError(`no eval run ${runId}`);
            const stored = (run.options as { paths?: string[] | null }).paths;
            const scenarios = loadScenarios(paths.length ? paths : (stored ?? ['scenarios']));
            try {
              return await app.get(ScenarioRunner).resume(runId, scenarios, {
                concurrency: opts.concurrency,
                force: opts.force,
                onTrialStarted: (n) => progress.started(n),
                onTrialFinished: (t) => progress.finished(t),
                interrupt: stop.signal,
              });
            } catch (e) {
              if (e instanceof ResumeError) throw new UsageError((e as Error).message);
              throw e;
            }
          })
          .finally(() => {
            progress.stop();
            stop.release();
          });
        printRunReport(report, opts);
        const signal = stop.received();
        if (signal) setVerdict(signalExit(signal));
      },
    );
}
