import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import { firstLiveGroup } from '../../eval/live-groups';
import { configurations, parseAxes, planJobs, plannedModels } from '../../eval/run-plan';
import { isSimModel, personaDirs, resolvePersonas, simRunProblems, type RunPersonas } from '../../eval/sim-models';
import { PersonaFileError, UnknownPersonaError } from '../../sim/persona-errors';
import type { Scenario } from '../../eval/scenario/scenario';
import { homeScenarioCache, loadScenarios } from '../../eval/scenario/scenario-loader';
import { standinShortfalls } from '../../eval/standin-model-check';
import { parseRunSeed } from '../../eval/trials/trial-seed';
import { unjudgedPlan, unjudgedWarning } from '../../eval/unjudged-plan';
import { baselineGate } from '../baseline-gate';
import { evalProgress } from '../eval-progress';
import { EXIT, setVerdict, signalExit } from '../exit-codes';
import { stopOnSignals } from '../signal-stop';
import { trialsRunHere } from '../trials-here';
import { unknownModelMessage } from '../unknown-model';
import { recordedTotals, recordSummaryText } from '../record-summary';
import { lazy } from '../lazy';
import { formatResultsTable, toJsonReport } from '../results-table';
import type { EvalRunReport } from '../../eval/eval-types';
import type { ReplaySettings } from '../../eval/recording/run-replay';
import type { EarlyProvider } from '../../provider/ollama/ollama-provider.factory';
import { registerCompareCommand } from './eval-compare.command';
import { printCoverage } from './eval-coverage';
import { registerRecordingCommands } from './eval-recording.command';
import { registerResumeCommand } from './eval-resume.command';
import { registerStatusCommand } from './eval-status.command';
import { replaySource } from './eval-replay-source';

/**
 * Warm-up sessions while the database starts: V8 optimises code only after it has run a number of
 * times, and with one round the run's first trials still set up and asked about twice as slowly as
 * later ones (~2-4 ms a round once compiled; ~110 ms for 8 in all, the stand-in's start included).
 */
const SESSION_WARMUP_ROUNDS = 8;

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
  record?: boolean;
  replay?: string;
  replayPace: string;
  allowNew?: boolean;
  allowUnjudged?: boolean;
  queue?: boolean;
  wait?: boolean;
  seed?: number;
  personas?: string;
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
    .option(
      '--coverage',
      'list every item of the specs (invariants, examples, error cases, steps) with the scenarios and tests that check it, and run nothing; exit 1 if one has none',
    )
    .option('--specs <dir>', 'with --coverage: read the items from this directory of specs instead of specs/spec-catalogue.json')
    .option('--write-catalogue', 'with --coverage --specs: rewrite specs/spec-catalogue.json from the specs')
    .option('--record', 'keep every model request and response (for --replay, `eval export`, `eval export --scenarios`)')
    .option(
      '--replay <run|file>',
      "serve every trial from a recorded run (its id, or a file from `eval export`): the run's own scenarios, models, configurations and trials",
    )
    .option('--replay-pace <pace>', 'fast (as fast as possible) or recorded (at the recorded chunk timing)', 'fast')
    .option(
      '--allow-new',
      'with --replay: a request missing from the recording goes to OLLAMA_HOST (and is recorded) instead of failing its trial',
    )
    .option('--queue', 'enqueue the trials for `loupe worker` processes (sharing this database) instead of running them here')
    .option('--wait', 'with --queue: wait until the workers have finished the run, then report it')
    .option(
      '--seed <int>',
      "the run seed: each trial's model requests carry a seed derived from it, the cell and the trial index (default: drawn at random; recorded, printed with --json)",
      runSeedArg,
    )
    .option('--allow-unjudged', 'exit 0 even when some trials were unjudged (no check applied to them; never counted as passes)')
    .option(
      '--personas <dir>',
      'a directory of persona YAML files for simulated models (-m sim:<persona>), searched after the shipped ones and LOUPE_PERSONAS_DIR',
    )
    .action(async (paths: string[], opts: EvalFlags, command: Command) => {
      const explicitPaths = command.args.length > 0;
      if (opts.replayPace !== 'fast' && opts.replayPace !== 'recorded')
        throw new UsageError(`--replay-pace ${opts.replayPace}: expected fast or recorded`);
      if (opts.allowNew && !opts.replay) throw new UsageError('--allow-new applies to --replay');
      if (opts.wait && !opts.queue) throw new UsageError('--wait applies to --queue');
      if (opts.allowUnjudged && opts.baseline)
        throw new UsageError('--allow-unjudged with --baseline: a regression gate must not pass on trials that checked nothing');
      if (opts.replay && (opts.model || opts.set.length || opts.trials !== 1))
        throw new UsageError("--replay replays the recorded run's models, configurations and trials: leave out -m, --set and -t");
      if (opts.replay && opts.seed !== undefined) throw new UsageError("--replay sends the recorded run's seeds: leave out --seed");
      // Bad input stops everything before anything runs (exit 2); a replay may take its scenario paths from the recording
      let scenarios =
        opts.replay && !explicitPaths ? undefined : loadScenarios(paths, undefined, { cache: homeScenarioCache(() => getConfig().home) });
      if (opts.coverage) {
        setVerdict(printCoverage(scenarios ?? loadScenarios(paths), opts) ? EXIT.OK : EXIT.FAILED);
        return;
      }
      opts.model = opts.model || opts.models ? [...new Set([...(opts.model ?? []), ...(opts.models ?? [])])] : undefined;
      if (opts.judge !== 'auto' && opts.judge !== 'success') throw new UsageError(`--judge ${opts.judge}: expected auto or success`);
      const axes = parseAxes(opts.set);
      if (axes.problems.length) throw new UsageError(axes.problems.join('\n'));
      const config = getConfig();
      if (opts.allowNew && !config.ollama.host)
        throw new UsageError('--allow-new sends requests missing from the recording to OLLAMA_HOST: set it');
      // simulated models (-m sim:<persona>): their personas read now, every problem bad input
      const personas = scenarios && !opts.replay ? runPersonas(scenarios, opts.model, config, opts.personas) : undefined;
      if (!config.ollama.host && scenarios && !opts.replay) {
        // one error per model asked for, not one per scenario: said with the closest model served
        const unknown = unknownModelMessage(scenarios, opts.model);
        if (unknown) throw new UsageError(unknown);
        // valid input (a scenario for real models), but here its trials fail: said before they do
        for (const { scenario: s, line, why } of standinShortfalls(scenarios, opts.model))
          process.stderr.write(
            `loupe: ${s.file}${line ? `:${line}` : ''}: scenario ${s.id} ${why}; OLLAMA_HOST is unset, so its trials fail\n`,
          );
      }
      if (scenarios && !opts.replay)
        for (const p of unjudgedPlan(
          scenarios,
          configurations(axes.axes),
          config.ollama.host ? 'live' : personas ? 'sim' : 'scripted',
          opts.judge as 'auto' | 'success',
        ))
          process.stderr.write(`${unjudgedWarning(p)}\n`);
      for (const s of scenarios ?? [])
        for (const p of [
          ...(s.unsatisfiable?.expect ?? []),
          ...(s.unsatisfiable?.success ?? []),
          ...Object.values(s.unsatisfiable?.expectByProfile ?? {}).flat(),
        ])
          process.stderr.write(
            `loupe: ${p.file}:${p.line}: ${p.field}: ${p.message}; this expectation cannot pass as written (it can never hold, or is malformed), so it fails\n`,
          );
      // a live run: the host, its models, their sign-in and context lengths checked before any trial starts
      // (a queued run too, before anything is enqueued: against the OLLAMA_HOST it is queued for)
      const liveJobs =
        config.ollama.host && scenarios && !opts.replay
          ? planJobs(scenarios, { models: opts.model, configs: configurations(axes.axes), trials: 1 })
          : undefined;
      if (liveJobs) await preflightLiveRun(config, liveJobs);
      const { ScenarioRunner } = lazy.runner();
      // on the next turn of the event loop, i.e. once the application's start waits on its database;
      // its rounds stop when the run starts (a faster start than the warm-up's 8 rounds)
      const runStarted = new AbortController();
      let warming: Promise<unknown> | undefined;
      // the run's provider for OLLAMA_HOST, made and warmed meanwhile; the application adopts it
      let early: EarlyProvider | undefined;
      if (!opts.queue)
        setTimeout(() => {
          void lazy.loupeRevision().loupeRevision();
          const warmup = lazy.trialWarmup();
          warming = warmup.warmSessionPath(config, SESSION_WARMUP_ROUNDS, runStarted.signal).catch(() => undefined);
          if (config.ollama.host && !opts.replay)
            early = warmup.warmRunProvider(config, config.ollama.host, liveJobs && firstLiveGroup(liveJobs, config.ollama.numCtx)).early;
        }, 0);
      // progress on stderr in every mode: stdout carries only the result (JSON or table)
      const progress = evalProgress(process.stderr, { concurrency: opts.concurrency });
      // trials run here: their child processes recorded (a killed Loupe's ended first), and
      // SIGINT/SIGTERM stop the run (its running trials interrupted) instead of the process
      if (!opts.queue) trialsRunHere(config.home);
      const stop = opts.queue ? undefined : stopOnSignals();
      const report = await lazy
        .appContext()
        .withAppContext(config, async (app) => {
          if (early) lazy.trialWarmup().adoptRunProvider(app, early);
          if (opts.baseline && !(await app.get(lazy.evalRepository().EvalRepository).getRun(runIdArg(opts.baseline)))) {
            throw new UsageError(`--baseline ${opts.baseline}: no such eval run`);
          }
          let runOptions: {
            models?: string[];
            trials: number;
            configurations: ReturnType<typeof configurations>;
            paths?: string[];
            seed?: number | null;
            personas?: RunPersonas;
          } = {
            personas,
            models: opts.model,
            trials: opts.trials,
            configurations: configurations(axes.axes),
            paths: explicitPaths ? paths : undefined,
          };
          let replay: ReplaySettings | undefined;
          if (opts.replay) {
            const source = await replaySource(app, opts.replay, explicitPaths ? scenarios : undefined);
            scenarios = source.scenarios;
            runOptions = source.options;
            replay = { runId: source.runId, pace: opts.replayPace as 'fast' | 'recorded', allowNew: Boolean(opts.allowNew) };
          }
          const options = {
            ...runOptions,
            concurrency: opts.concurrency,
            baselineRunId: opts.baseline,
            judge: opts.judge as 'auto' | 'success',
            record: opts.record,
            replay,
            seed: replay ? runOptions.seed : opts.seed,
            onRunStarted: (id: string) => process.stderr.write(`run ${id} (if it is killed: loupe eval resume ${id})\n`),
            onTrialStarted: (n: number) => progress.started(n),
            onTrialFinished: (t: Parameters<typeof progress.finished>[0]) => progress.finished(t),
            interrupt: stop?.signal,
          };
          if (opts.queue) {
            const queued = app.get(lazy.queue().QueuedRuns);
            const runId = await queued.enqueue(scenarios!, options);
            process.stderr.write(
              `run ${runId} queued: ${await queued.jobCount(runId)} trials for \`loupe worker\` processes (progress: loupe eval status ${runId})\n`,
            );
            if (!opts.wait) {
              process.stdout.write(opts.json ? `${JSON.stringify({ runId, queued: true })}\n` : `${runId}\n`);
              return undefined;
            }
            return queued.waitForReport(runId, scenarios!, {
              onTrialFinished: options.onTrialFinished,
              onTrialStarted: options.onTrialStarted,
            });
          }
          // the round under way is cut short and the warm-up's stand-in closed before the run's clock
          // starts: none of it then runs beside the first trials (a round is 10-25 ms of this thread)
          runStarted.abort();
          await warming;
          const result = await app.get(ScenarioRunner).run(scenarios!, options);
          if (options.record) {
            const where = config.databaseUrl ? 'the DATABASE_URL Postgres,' : `the embedded Postgres (${config.home}),`;
            process.stderr.write(`${recordSummaryText(result.runId, await recordedTotals(app, result.runId), where)}\n`);
          }
          return result;
        })
        .finally(() => {
          progress.stop();
          stop?.release();
          early?.dispose(); // when the application never adopted it (its start failed)
        });
      if (report) printRunReport(report, opts);
      const signal = stop?.received();
      if (signal) setVerdict(signalExit(signal));
    });
  registerCompareCommand(evalCommand, getConfig);
  registerRecordingCommands(evalCommand, getConfig);
  registerResumeCommand(evalCommand, getConfig);
  registerStatusCommand(evalCommand, getConfig);
}

/** The result on stdout (JSON or the table), the reports asked for, regressions on stderr, and the verdict. */
export function printRunReport(
  report: EvalRunReport,
  opts: { json?: boolean; junit?: string; markdown?: string; allowUnjudged?: boolean },
): void {
  process.stdout.write(opts.json ? `${JSON.stringify(toJsonReport(report), null, 2)}\n` : `${formatResultsTable(report)}\n`);
  const reports = lazy.reports();
  if (opts.junit) fs.writeFileSync(opts.junit, reports.toJUnit(report));
  if (opts.markdown) fs.writeFileSync(opts.markdown, reports.toMarkdown(report));
  // against a baseline, failures are judged by the comparison: only a corrected regression fails the run
  const baseline = report.comparison ? baselineGate(report.comparison, (l) => process.stderr.write(`${l}\n`)) : undefined;
  const lost = report.storage?.mismatched.length ?? 0;
  if (lost)
    process.stderr.write(`STORAGE MISMATCH: ${lost} session(s) in Postgres differ from what the journal recorded (see --json storage)\n`);
  // a trial no check applied to is not a pass: the run fails unless it was asked to accept them
  const unjudged = report.unjudged > 0 && !opts.allowUnjudged;
  if (unjudged) process.stderr.write(`UNJUDGED: ${report.unjudged} trial(s) had no check to judge them (--allow-unjudged accepts that)\n`);
  setVerdict(
    (report.failed && !baseline?.excusesFailures) ||
      report.errored ||
      report.notRun ||
      report.stoppedBy ||
      unjudged ||
      baseline?.fires ||
      lost
      ? EXIT.FAILED
      : EXIT.OK,
  );
}

export class UsageError extends Error {}

/** Bad input for a live run (an unreachable host, a missing model, no sign-in, num_ctx over a model's length) stops it before it starts. */
async function preflightLiveRun(config: LoupeConfig, jobs: ReturnType<typeof planJobs>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a live run
  const { livePreflight } = require('../../eval/live-preflight-host') as typeof import('../../eval/live-preflight-host');
  const verdict = await livePreflight(config.ollama, jobs);
  for (const note of verdict.notes) process.stderr.write(`loupe: ${note}\n`);
  if (verdict.problems.length)
    throw new UsageError(`OLLAMA_HOST is not ready for this run, nothing was run:\n  ${verdict.problems.join('\n  ')}`);
}

const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A run id argument: a UUID, as `loupe eval` prints it (anything else is bad input, not a database error). */
export function runIdArg(value: string): string {
  if (!RUN_ID.test(value)) throw new UsageError(`${value}: not a run id (a UUID, as \`loupe eval\` prints it)`);
  return value;
}

/** The personas of the run's simulated models (undefined: it has none); an unknown persona, a broken file or a scenario with no plan is bad input. */
function runPersonas(
  scenarios: Scenario[],
  models: string[] | undefined,
  config: LoupeConfig,
  personasDir: string | undefined,
): RunPersonas | undefined {
  const planned = plannedModels(scenarios, models);
  if (!planned.some(isSimModel)) {
    if (personasDir) process.stderr.write('loupe: --personas applies to simulated models (-m sim:<persona>); none is run\n');
    return undefined;
  }
  const problems = simRunProblems(scenarios, models, config.ollama.host);
  if (problems.length) throw new UsageError(`${problems.join('\n')}\nnothing was run`);
  if (personasDir && !fs.existsSync(personasDir)) throw new UsageError(`--personas ${personasDir}: no such directory`);
  try {
    return resolvePersonas(planned, personaDirs(config.sim.personasDir, personasDir && path.resolve(personasDir)));
  } catch (e) {
    if (e instanceof UnknownPersonaError || e instanceof PersonaFileError) throw new UsageError(`${e.message}\nnothing was run`);
    throw e;
  }
}

function runSeedArg(value: string): number {
  const parsed = parseRunSeed(value);
  if ('problem' in parsed) throw new UsageError(`--seed: ${parsed.problem}`);
  return parsed.seed;
}

export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag}: expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
