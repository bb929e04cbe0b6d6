// Runs an eval: scenarios × models × configurations × trials, grouped by model (each model warmed
// before its trials are timed against a real Ollama), through a pool of `concurrency` workers. Scripted
// runs replay each scenario's script on a fresh stand-in and check its exact expectations; live runs
// (OLLAMA_HOST) check success criteria; every trial checks the invariants. The statistics per cell
// and rolled up per model, configuration and run are computed and stored with the run.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { DatabaseHealth } from '../database/database-health';
import { JournalService } from '../journal/journal.service';
import type { SessionHandle } from '../process/process-types';
import { OllamaProviderFactory } from '../provider/ollama/ollama-provider.factory';
import { EvalRunRecorder } from './eval-recorder';
import type { EvalRunOptions, EvalRunReport, TrialReport } from './eval-types';
import { loupeRevision } from './loupe-revision';
import { configurations as noAxes, planJobs, type Job } from './run-plan';
import { EvalRepository } from './eval.repository';
import type { Scenario } from './scenario/scenario';
import { compareRuns } from './statistics/compare';
import type { TrialOutcome } from './statistics/statistics-types';
import { summarizeAll } from './statistics/summarize';
import { TrialRunner } from './trials/trial-runner.service';
import { SessionQueryRepository } from '../journal/session-query.repository';
import type { TrialMode } from './trials/trial-verdict';

@Injectable()
export class ScenarioRunner {
  private readonly logger = new Logger('Eval');

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly journal: JournalService,
    private readonly health: DatabaseHealth,
    private readonly trials: TrialRunner,
    private readonly results: EvalRepository,
    private readonly providers: OllamaProviderFactory,
    private readonly sessions: SessionQueryRepository,
  ) {}

  async run(scenarios: Scenario[], options: EvalRunOptions = {}): Promise<EvalRunReport> {
    const started = Date.now();
    const trialsPerCell = Math.max(1, options.trials ?? 1);
    const realHost = this.config.ollama.host;
    const mode: TrialMode = realHost ? 'live' : 'scripted';
    const configs = options.configurations?.length ? options.configurations : noAxes([]);
    const jobs = planJobs(scenarios, { models: options.models, configs, trials: trialsPerCell });
    const models = [...new Set(jobs.map((j) => j.model))];
    const revision = loupeRevision();
    const recorder = new EvalRunRecorder(this.journal, {
      id: options.runId ?? randomUUID(),
      scenarioCount: scenarios.length,
      loupeVersion: process.env.npm_package_version ?? null,
      options: {
        models: options.models ?? null,
        trials: trialsPerCell,
        backend: realHost ?? 'standin',
        scenarios: scenarios.map((s) => s.id),
      },
      config: {
        mode,
        judge: options.judge ?? 'auto',
        models,
        configurations: configs,
        trialsPerCell,
        concurrency: options.concurrency ?? 1,
        loupeRevision: revision,
      },
    });
    const results: Array<{ report: TrialReport; outcome: TrialOutcome }> = new Array(jobs.length);
    // a database that died for good stops the run: nothing new starts, what runs is stopped
    let stoppedBy: string | undefined;
    const running = new Set<SessionHandle>();
    const onFailure = this.health.failed$.subscribe((e) => {
      stoppedBy = `the database failed: ${e.message.split('\n')[0]}`;
      for (const h of running) h.kill('database failed');
    });
    const warmed = new Map<string, Promise<void>>();
    const recordedEvents = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < jobs.length && !stoppedBy) {
        const i = next++;
        const job = jobs[i];
        if (mode === 'live') await this.warm(job, warmed);
        options.onTrialStarted?.(jobs.length);
        results[i] = await this.trials.run(job, { recorder, running, mode, judge: options.judge, recordedEvents, loupeRevision: revision });
        options.onTrialFinished?.(results[i].report);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 1, jobs.length)) }, worker));
    } finally {
      onFailure.unsubscribe();
    }
    const done = results.filter(Boolean); // in job order; a stopped run has gaps
    const reports = done.map((r) => r.report);
    const outcomes = done.map((r) => r.outcome);
    const summaries = summarizeAll(outcomes, { ks: [1, trialsPerCell].filter((k, i, a) => a.indexOf(k) === i) });
    const count = (s: TrialReport['status']) => reports.filter((r) => r.status === s).length;
    const report: EvalRunReport = {
      runId: recorder.runId,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      backend: realHost ? { kind: 'ollama', host: realHost } : { kind: 'standin' },
      passed: count('passed'),
      failed: count('failed'),
      errored: count('error'),
      notRun: jobs.length - reports.length,
      trials: reports,
      stoppedBy,
      mode,
      models,
      configurations: configs,
      trialsPerCell,
      summaries,
    };
    if (options.baselineRunId) {
      const baseline = await this.results.outcomesOf(options.baselineRunId);
      report.comparison = { baselineRunId: options.baselineRunId, result: compareRuns(baseline, outcomes) };
    }
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
        errored: c.summary.errored,
        statistics: c.summary as unknown as Record<string, unknown>,
      })),
    );
    recorder.finish(
      stoppedBy ? 'failed' : 'finished',
      { trialCount: reports.length, passed: report.passed, failed: report.failed, errored: report.errored },
      {
        run: summaries.run,
        models: summaries.models,
        configs: summaries.configs,
      },
    );
    const flushed = await this.journal.flush(10_000).then(
      () => true,
      (e: Error) => {
        this.logger.warn(`the run's statistics are queued, not yet written: ${e.message}`);
        return false;
      },
    );
    // trials were judged from the journal's stream; Postgres must hold what it recorded
    if (flushed) report.storage = await this.crossCheck(recordedEvents);
    return report;
  }

  /** Sessions whose stored events differ in number from what the journal recorded (a loss would show here). */
  private async crossCheck(recorded: Map<string, number>): Promise<NonNullable<EvalRunReport['storage']>> {
    try {
      const stored = await this.sessions.eventCounts([...recorded.keys()]);
      const mismatched = [...recorded]
        .filter(([id, n]) => (stored.get(id) ?? 0) !== n)
        .map(([id, n]) => ({ sessionId: id, recorded: n, stored: stored.get(id) ?? 0 }));
      if (mismatched.length)
        this.logger.error(
          `${mismatched.length} session(s) in Postgres differ from what the journal recorded: ${JSON.stringify(mismatched.slice(0, 5))}`,
        );
      return { sessionsChecked: recorded.size, mismatched };
    } catch (e) {
      this.logger.warn(`could not cross-check the stored sessions: ${(e as Error).message}`);
      return { sessionsChecked: 0, mismatched: [] };
    }
  }

  /** Against a real Ollama a model is loaded once, before its first timed trial. */
  private warm(job: Job, warmed: Map<string, Promise<void>>): Promise<void> {
    let w = warmed.get(job.model);
    if (!w) {
      const provider = this.providers.forHost(this.config.ollama.host!);
      w = provider.warm(job.model).catch((e: Error) => this.logger.warn(`could not warm ${job.model}: ${e.message}`));
      warmed.set(job.model, w);
    }
    return w;
  }
}
