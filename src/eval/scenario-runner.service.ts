// Runs an eval: scenarios × models × configurations × trials through a pool of `concurrency` workers;
// against a real Ollama grouped by (model, runner options), each group warmed before its trials'
// sessions start (their setups run meanwhile) and drained before the next (live-schedule.ts). Scripted
// runs replay each scenario's script on a fresh stand-in and check its exact expectations; live runs
// (OLLAMA_HOST) check success criteria; replayed runs serve a recorded run's trials and judge them as
// it did; every trial checks the invariants. A killed run is resumed: its finished trials are kept,
// interrupted ones rerun as new attempts, the rest run. The statistics per cell and rolled up per
// model, configuration and run are computed and stored with the run.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { processAlive } from '../common/process-alive';
import type { EvalRunRow } from '../journal/journal-entry';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { DatabaseHealth } from '../database/database-health';
import { JournalService } from '../journal/journal.service';
import type { SessionHandle } from '../process/process-types';
import { OllamaProviderFactory } from '../provider/ollama/ollama-provider.factory';
import { EvalRunRecorder } from './eval-recorder';
import type { EvalRunOptions, EvalRunReport, TrialReport } from './eval-types';
import { loupeDiffHash, loupeRevision } from './loupe-revision';
import { RecordingRepository } from './recording/recording.repository';
import { RunReplay, type ReplaySettings } from './recording/run-replay';
import { planRun, resumePlan, ResumeError, type PlannedTrial, type RunPlan } from './run-resume';
import { EvalRepository } from './eval.repository';
import type { Scenario } from './scenario/scenario';
import type { TrialOutcome } from './statistics/statistics-types';
import { TrialRunner, type TrialContext } from './trials/trial-runner.service';
import { SessionQueryRepository } from '../journal/session-query.repository';
import { startStaggered } from './staggered-start';
import { firstLiveGroup, type LiveGroup } from './live-groups';
import { trialSchedule, warmRunner } from './live-schedule';
import { interruptReason, onInterrupt } from './run-interrupt';
import type { TrialMode } from './trials/trial-verdict';
import { withPersonas } from './sim-models';
import { RunResultsSpool } from './run-results-spool';
import { StorageCrossCheck } from './storage-cross-check';

type Result = { report: TrialReport; outcome: TrialOutcome };

/** the longest a worker waits for the one before it to have its first trial underway (see staggered-start.ts) */
const RAMP_STEP_MAX_MS = 25;

@Injectable()
export class ScenarioRunner {
  private readonly logger = new Logger('Eval');

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly journal: JournalService,
    private readonly health: DatabaseHealth,
    private readonly trials: TrialRunner,
    private readonly results: EvalRepository,
    private readonly recordings: RecordingRepository,
    private readonly providers: OllamaProviderFactory,
    private readonly sessions: SessionQueryRepository,
  ) {
    // read once per process, before the first run needs it (the server's first run, too, records at once)
    void loupeRevision();
    void loupeDiffHash();
  }

  async run(scenarios: Scenario[], options: EvalRunOptions = {}): Promise<EvalRunReport> {
    // the run's duration is from here: planning and its first record included, as startedAt says
    const started = Date.now();
    const realHost = this.config.ollama.host;
    const replayMode = options.replay ? await this.replayMode(options.replay.runId) : undefined;
    // simulated models (`sim:<persona>`): their personas read once, before anything runs, and stored with the run
    if (!options.replay) options = withPersonas(scenarios, options, this.config);
    const mode: TrialMode = replayMode ?? (realHost ? 'live' : options.personas ? 'sim' : 'scripted');
    const plan = planRun(scenarios, options, {
      mode,
      backend: realHost ?? 'standin',
      loupeRevision: await loupeRevision(),
      loupeDiffHash: await loupeDiffHash(),
    });
    const recorder = new EvalRunRecorder(this.journal, { id: options.runId ?? randomUUID(), ...plan.run });
    // the first model loads while the run is written (later ones as their trials come: one model
    // at a time on the host's memory)
    const warmed = new Map<string, Promise<void>>();
    const first = mode === 'live' && !options.replay ? firstLiveGroup(plan.jobs, this.config.ollama.numCtx) : undefined;
    if (first) void this.warm(first, warmed);
    // the run is announced (to be resumed if it is killed) once it is recorded: an announced run can
    // be resumed. Its trials start meanwhile; the journal writes their rows after the run's.
    const announced = this.journal
      .flush(10_000)
      .catch((e: Error) => this.logger.warn(`the run is queued, not yet written: ${e.message}`))
      .then(() => options.onRunStarted?.(recorder.runId));
    return this.execute(
      plan,
      recorder,
      plan.jobs.map((job, index) => ({ index, job })),
      [],
      options,
      { started, warmed, announced },
    );
  }

  /**
   * Finishes a run that was killed or stopped: nothing finished is redone, nothing is lost, each
   * interrupted trial is rerun as a new attempt (its partial session kept). `force`: the run's owner
   * is on another host and known to be gone.
   */
  async resume(
    runId: string,
    scenarios: Scenario[],
    options: Pick<EvalRunOptions, 'onTrialStarted' | 'onTrialFinished' | 'concurrency' | 'interrupt'> & { force?: boolean } = {},
  ): Promise<EvalRunReport> {
    const run = (await this.results.getRun(runId)) as EvalRunRow | null;
    if (!run) throw new ResumeError(`no eval run ${runId}`);
    if (run.status === 'queued') throw new ResumeError(`run ${runId} is queued: \`loupe worker\` processes finish it`);
    if (run.status === 'finished') {
      // killed after its statistics were written (before it printed them): its report, from what it recorded
      this.logger.warn(`run ${runId} is finished (${run.trialCount} trials): nothing to resume; its report follows`);
      return this.reportFromRecord(runId, scenarios, { close: false });
    }
    if (run.status === 'running' && !options.force) {
      if (run.ownerHost !== hostname())
        throw new ResumeError(
          `run ${runId} is running on ${run.ownerHost} (pid ${run.ownerPid}); if that process is gone, resume with --force`,
        );
      if (processAlive(run.ownerPid)) throw new ResumeError(`run ${runId} is still running (pid ${run.ownerPid})`);
    }
    const rows = await this.results.trialsOf(runId);
    const resumed = resumePlan(run, rows, scenarios);
    if (options.concurrency) resumed.options.concurrency = options.concurrency;
    const recorder = new EvalRunRecorder(this.journal, { existing: resumed.runRow, resume: true });
    for (const t of resumed.todo) if (t.replaces) await this.results.markReplaced(t.replaces, t.ids!.trialId!);
    this.logger.log(
      `resuming run ${runId}: ${resumed.kept.length} finished trial(s) kept, ${resumed.todo.filter((t) => t.replaces).length} interrupted one(s) rerun, ${resumed.todo.filter((t) => !t.replaces).length} to run`,
    );
    return this.execute(resumed.plan, recorder, resumed.todo, resumed.kept, { ...resumed.options, ...options });
  }

  private async replayMode(runId: string): Promise<TrialMode> {
    const source = await this.results.getRun(runId);
    if (!source) throw new Error(`replay: no eval run ${runId}`);
    if (!(await this.recordings.exchangeCount(runId))) throw new Error(`replay: run ${runId} was not recorded (run it with --record)`);
    return ((source.config as { mode?: TrialMode }).mode ?? 'scripted') as TrialMode;
  }

  private runReplay(settings: ReplaySettings, mode: TrialMode): RunReplay {
    const host = this.config.ollama.host;
    return new RunReplay(
      settings,
      mode,
      (runId, t) => this.recordings.recordedTrial(runId, t),
      host ? { main: host, local: this.config.ollama.localHost } : undefined,
    );
  }

  private async execute(
    plan: RunPlan,
    recorder: EvalRunRecorder,
    todo: PlannedTrial[],
    kept: Array<{ index: number; result: Result }>,
    options: EvalRunOptions,
    at: { started: number; warmed: Map<string, Promise<void>>; announced?: Promise<void> } = { started: Date.now(), warmed: new Map() },
  ): Promise<EvalRunReport> {
    const { started, warmed } = at;
    const { jobs, mode } = plan;
    if (options.replay?.allowNew && !this.config.ollama.host) throw new Error('--allow-new sends misses to OLLAMA_HOST: set it');
    const ctx: Omit<TrialContext, 'running'> = {
      recorder,
      mode,
      judge: options.judge,
      loupeRevision: plan.loupeRevision,
      loupeDiffHash: plan.loupeDiffHash,
      runSeed: plan.seed,
      personas: options.personas,
      liveHost: this.config.ollama.host,
      record: options.record || Boolean(options.replay?.allowNew),
      replay: options.replay ? this.runReplay(options.replay, mode) : undefined,
      recordedEvents: new Map<string, number>(),
      interrupted: () => interruptReason(options.interrupt),
    };
    // finished trials wait for the report outside the heap: a long run's memory stays flat
    const results = new RunResultsSpool<Result>();
    for (const k of kept) results.add(k.index, k.result);
    const storage = this.storageCheck(ctx.recordedEvents!);
    // a database that died for good stops the run: nothing new starts, what runs is stopped
    let stoppedBy: string | undefined;
    const running = new Set<SessionHandle>();
    const onFailure = this.health.failed$.subscribe((e) => {
      stoppedBy = `the database failed: ${e.message.split('\n')[0]}`;
      for (const h of running) h.kill('database failed');
    });
    // a signal: the same stop, its trials left interrupted (not judged, rerun by resume)
    let interrupted = 0;
    const unwatch = onInterrupt(options.interrupt, running, (reason) => (stoppedBy ??= reason));
    // live: trials grouped by (model, runner options), each group warmed once and drained before the next
    const schedule = trialSchedule(
      todo,
      mode === 'live' && !ctx.replay ? { configuredNumCtx: this.config.ollama.numCtx, warm: (g) => this.warm(g, warmed) } : undefined,
    );
    let next = 0;
    const worker = async (underway: () => void) => {
      // the previous trial's verdict, reported once it is in Postgres while this worker runs the next:
      // one at a time, so a database that is away slows the run instead of piling up verdicts
      let reporting = Promise.resolve();
      let onUnderway: (() => void) | undefined = underway;
      while (next < todo.length && !stoppedBy) {
        const position = next++;
        const { index, job, ids } = schedule.todo[position];
        // the trial sets up while its model loads; its session starts once the model is warm
        const { warmed: modelReady } = await schedule.open(position);
        // a turn of the event loop before a setup (microtasks from end to end, with an in-memory MCP
        // session): the request of the trial that just got the freed slot goes out first
        if (!onUnderway) await nextTurn();
        options.onTrialStarted?.(todo.length);
        const result = await this.trials.run(job, { ...ctx, running, onUnderway, modelReady }, ids).finally(() => schedule.close());
        onUnderway = undefined;
        if (result.interrupted) {
          interrupted++;
          continue;
        }
        results.add(index, result);
        storage.poll();
        await reporting;
        reporting = this.trials.recorded().then(() => options.onTrialFinished?.(result.report));
      }
      underway();
      await reporting;
    };
    try {
      const workers = Math.max(1, Math.min(options.concurrency ?? 1, todo.length));
      await startStaggered(workers, RAMP_STEP_MAX_MS, worker);
    } catch (e) {
      results.dispose();
      throw e;
    } finally {
      onFailure.unsubscribe();
      unwatch();
    }
    await at.announced;
    return this.conclude(plan, recorder, results.read(jobs.length), options, {
      started,
      stoppedBy,
      interrupted,
      replayed: Boolean(ctx.replay),
      write: true,
      storage,
    });
  }

  /**
   * A run's report from what is recorded — the trials of a queued run, which workers ran — with its
   * statistics computed exactly as a run computes them. `close`: write them and finish the run.
   */
  async reportFromRecord(runId: string, scenarios: Scenario[], opts: { close: boolean }): Promise<EvalRunReport> {
    const run = (await this.results.getRun(runId)) as EvalRunRow | null;
    if (!run) throw new ResumeError(`no eval run ${runId}`);
    const resumed = resumePlan(run, await this.results.trialsOf(runId), scenarios);
    const recorder = new EvalRunRecorder(this.journal, { existing: resumed.runRow, resume: false });
    const results: Result[] = new Array(resumed.plan.jobs.length);
    for (const k of resumed.kept) results[k.index] = k.result;
    return this.conclude(resumed.plan, recorder, results, resumed.options, {
      started: run.startedAt.getTime(),
      replayed: Boolean(resumed.options.replay),
      write: opts.close,
    });
  }

  private async conclude(
    plan: RunPlan,
    recorder: EvalRunRecorder,
    results: Result[],
    options: EvalRunOptions,
    at: {
      started: number;
      stoppedBy?: string;
      interrupted?: number;
      replayed: boolean;
      write: boolean;
      storage?: StorageCrossCheck;
    },
  ): Promise<EvalRunReport> {
    const { jobs, mode, trialsPerCell, configs, models } = plan;
    const stoppedBy = at.stoppedBy;
    const done = results.filter(Boolean); // in job order; a stopped run has gaps
    const reports = done.map((r) => r.report);
    const outcomes = done.map((r) => r.outcome);
    // the statistics code is loaded when a run ends, not before its first trial
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { summarizeAll } = require('./statistics/summarize') as typeof import('./statistics/summarize');
    const summaries = summarizeAll(outcomes, { ks: [1, trialsPerCell].filter((k, i, a) => a.indexOf(k) === i) });
    const count = (s: TrialReport['status']) => reports.filter((r) => r.status === s).length;
    const realHost = this.config.ollama.host;
    const report: EvalRunReport = {
      runId: recorder.runId,
      startedAt: recorder.row.startedAt.toISOString(),
      durationMs: Date.now() - at.started,
      backend: realHost && mode === 'live' && !at.replayed ? { kind: 'ollama', host: realHost } : { kind: 'standin' },
      passed: count('passed'),
      failed: count('failed'),
      unjudged: count('unjudged'),
      errored: count('error'),
      notRun: jobs.length - reports.length - (at.interrupted ?? 0),
      interrupted: at.interrupted ?? 0,
      trials: reports,
      stoppedBy,
      mode,
      models,
      configurations: configs,
      trialsPerCell,
      summaries,
      ...(options.replay ? { replayOf: options.replay.runId } : {}),
      seed: plan.seed,
    };
    if (options.baselineRunId) {
      const baseline = await this.results.outcomesOf(options.baselineRunId);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { compareRuns } = require('./statistics/compare') as typeof import('./statistics/compare');
      report.comparison = { baselineRunId: options.baselineRunId, result: compareRuns(baseline, outcomes) };
    }
    if (!at.write) return report;
    recorder.cells(
      summaries.cells.map((c) => ({
        key: c.key,
        scenarioId: c.scenarioId,
        model: c.model,
        configKey: c.configKey,
        config: jobs.find((j) => j.config.key === c.configKey)?.config.overrides ?? {},
        trials: c.summary.trials,
        passed: c.summary.passed,
        failed: c.summary.failed,
        unjudged: c.summary.unjudged,
        errored: c.summary.errored,
        statistics: c.summary as unknown as Record<string, unknown>,
      })),
    );
    recorder.finish(
      stoppedBy ? (interruptReason(options.interrupt) ? 'interrupted' : 'failed') : 'finished',
      { trialCount: reports.length, passed: report.passed, failed: report.failed, unjudged: report.unjudged, errored: report.errored },
      { run: summaries.run, models: summaries.models, configs: summaries.configs },
    );
    // a run that returns has settled its trials' workspaces (removed in the background as each ended)
    await this.trials.workspacesRemoved();
    const flushed = await this.journal.flush(10_000).then(
      () => true,
      (e: Error) => {
        this.logger.warn(`the run's statistics are queued, not yet written: ${e.message}`);
        return false;
      },
    );
    // trials were judged from the journal's stream; Postgres must hold what it recorded
    if (flushed && at.storage) report.storage = await at.storage.finish();
    return report;
  }

  /** Sessions whose stored events differ in number from what the journal recorded (a loss would show here). */
  private storageCheck(recorded: Map<string, number>): StorageCrossCheck {
    return new StorageCrossCheck(recorded, {
      eventCounts: (ids) => this.sessions.eventCounts(ids),
      flush: () => this.journal.flush(10_000),
      warn: (m) => this.logger.warn(m),
      error: (m) => this.logger.error(m),
    });
  }

  /** Against a real Ollama each (model, runner options) group is loaded once, before its first timed trial. */
  private warm(group: LiveGroup, warmed: Map<string, Promise<void>>): Promise<void> {
    let w = warmed.get(group.key);
    if (!w) {
      const provider = this.providers.forHost(this.config.ollama.host!);
      w = warmRunner(provider, group.model, group.options).catch((e: Error) =>
        this.logger.warn(`could not warm ${group.model} (num_ctx ${group.options.numCtx}): ${e.message}`),
      );
      warmed.set(group.key, w);
    }
    return w;
  }
}
