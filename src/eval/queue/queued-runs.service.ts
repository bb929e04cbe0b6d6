// `loupe eval --queue`: a run whose trials are jobs for `loupe worker` processes. The run row and
// its jobs are written in one transaction (a run is never queued without its trials); the worker that
// finishes a run's last trial closes it — statistics computed from the recorded trials exactly as a
// run computes them — and `--wait` follows it to the end and reports it.
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { LOUPE_CONFIG } from '../../config/config.module';
import type { LoupeConfig } from '../../config/loupe-config';
import { toStorableRow } from '../../journal/storable-text';
import type { EvalRunOptions, EvalRunReport } from '../eval-types';
import { EvalRepository } from '../eval.repository';
import { loupeDiffHash, loupeRevision } from '../loupe-revision';
import { RecordingRepository } from '../recording/recording.repository';
import { planRun, type StoredRunConfig } from '../run-resume';
import type { Scenario } from '../scenario/scenario';
import { loadScenarios } from '../scenario/scenario-loader';
import { ScenarioRunner } from '../scenario-runner.service';
import { FINAL_TRIAL_STATUSES, isFinal, reportFromRow } from '../trials/trial-rows';
import { judgedAs, type TrialMode } from '../trials/trial-verdict';
import { withPersonas } from '../sim-models';
import { OLLAMA_QUEUE, STANDIN_QUEUE, TrialQueue, type TrialJobData } from './trial-queue';

@Injectable()
export class QueuedRuns {
  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly queue: TrialQueue,
    private readonly runs: EvalRepository,
    private readonly recordings: RecordingRepository,
    private readonly runner: ScenarioRunner,
  ) {}

  private readonly jobCounts = new Map<string, number>();

  async enqueue(scenarios: Scenario[], options: EvalRunOptions): Promise<string> {
    if (!options.replay) options = withPersonas(scenarios, options, this.config);
    let mode: TrialMode = this.config.ollama.host ? 'live' : options.personas ? 'sim' : 'scripted';
    if (options.replay) {
      const source = await this.runs.getRun(options.replay.runId);
      if (!source || !(await this.recordings.exchangeCount(options.replay.runId)))
        throw new Error(`replay: run ${options.replay.runId} is not a recorded run`);
      mode = ((source.config as { mode?: TrialMode }).mode ?? 'scripted') as TrialMode;
    }
    const plan = planRun(scenarios, options, {
      mode,
      backend: this.config.ollama.host ?? 'standin',
      loupeRevision: await loupeRevision(),
      loupeDiffHash: await loupeDiffHash(),
      queued: true,
    });
    const runId = randomUUID();
    // a real Ollama is needed by live trials, and by replays that send misses on to one
    const queue = (mode === 'live' && !options.replay) || options.replay?.allowNew ? OLLAMA_QUEUE : STANDIN_QUEUE;
    const jobs: TrialJobData[] = plan.jobs.map((job, index) => ({
      runId,
      index,
      scenarioId: job.scenario.id,
      scenarioFile: job.scenario.file,
      scenarioHash: job.scenario.hash,
      model: job.model,
      configKey: job.config.key,
      config: job.config.overrides,
      trial: job.trial,
    }));
    const row = toStorableRow({ options: plan.run.options, config: plan.run.config }, ['options', 'config']);
    await this.queue.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO eval_runs (id, status, started_at, scenario_count, trial_count, passed, failed, unjudged, errored, options, loupe_version, owner_pid, owner_host, config, originals)
         VALUES ($1, 'queued', now(), $2, 0, 0, 0, 0, 0, $3, $4, $5, $6, $7, $8)`,
        [
          runId,
          plan.run.scenarioCount,
          JSON.stringify(row.options),
          plan.run.loupeVersion,
          process.pid,
          hostname(),
          JSON.stringify(row.config),
          row.originals,
        ],
      );
      await this.queue.enqueue(queue, jobs, tx);
    });
    return runId;
  }

  async jobCount(runId: string): Promise<number> {
    // a run's plan never changes once queued: read once per process, not once per trial
    const known = this.jobCounts.get(runId);
    if (known) return known;
    const run = await this.runs.getRun(runId);
    const n = (run?.config as unknown as StoredRunConfig | undefined)?.jobCount ?? 0;
    if (n) this.jobCounts.set(runId, n);
    return n;
  }

  /** Planned trials of the run with a verdict, as counted by the trials' trigger (one row, whatever the run's size). */
  private async finished(runId: string): Promise<number> {
    const [row] = (await this.queue.pool.query(`SELECT done FROM eval_run_progress WHERE run_id = $1`, [runId])).rows as Array<{
      done: number;
    }>;
    return row?.done ?? 0;
  }

  /** The same, counted from the trials: once per run, when the counter says it is complete. */
  private async finishedExactly(runId: string): Promise<number> {
    const [row] = (
      await this.queue.pool.query(
        `SELECT count(DISTINCT (scenario_id, model, config_key, trial_index))::int AS n FROM eval_trials
        WHERE run_id = $1 AND status = ANY($2)`,
        [runId, [...FINAL_TRIAL_STATUSES]],
      )
    ).rows as Array<{ n: number }>;
    return row?.n ?? 0;
  }

  /** Called by a worker after each trial: the one that sees the run complete first closes it. */
  async closeIfComplete(runId: string): Promise<boolean> {
    const total = await this.jobCount(runId);
    if (!total || (await this.finished(runId)) < total) return false;
    // two attempts at one trial judged at once (a worker declared dead while finishing) could each be counted
    if ((await this.finishedExactly(runId)) < total) return false;
    const claimed = await this.queue.pool.query(
      `UPDATE eval_runs SET status = 'running', owner_pid = $2, owner_host = $3 WHERE id = $1 AND status = 'queued' RETURNING id`,
      [runId, process.pid, hostname()],
    );
    if (!claimed.rowCount) return false;
    await this.runner.reportFromRecord(runId, await this.scenariosOf(runId), { close: true });
    return true;
  }

  /** The scenarios of a run, read from the files its trials ran (relative to this process's working directory). */
  async scenariosOf(runId: string): Promise<Scenario[]> {
    const files = [...new Set((await this.runs.trialsOf(runId)).map((t) => t.scenarioFile))];
    return loadScenarios(files.map((f) => path.resolve(f)));
  }

  /** Follows a queued run to its end (each trial as it gets a verdict), then its report. */
  async waitForReport(
    runId: string,
    scenarios: Scenario[],
    progress: Pick<EvalRunOptions, 'onTrialStarted' | 'onTrialFinished'> = {},
    pollMs = 300,
  ): Promise<EvalRunReport> {
    const seen = new Set<string>();
    const total = await this.jobCount(runId);
    progress.onTrialStarted?.(total);
    const run0 = await this.runs.getRun(runId);
    const stored = run0?.config as unknown as StoredRunConfig;
    const byId = new Map(scenarios.map((s) => [s.id, s]));
    let counted = -1;
    for (;;) {
      const run = await this.runs.getRun(runId);
      if (!run) throw new Error(`no eval run ${runId}`);
      const done = await this.finished(runId);
      const ended = run.status === 'finished' || run.status === 'failed' || run.status === 'interrupted';
      // the trials are read again only when more have a verdict (or at the end), not on every poll
      const fresh = done !== counted || ended ? (await this.runs.trialsOf(runId)).filter(isFinal) : [];
      counted = done;
      for (const t of fresh) {
        const scenario = byId.get(t.scenarioId);
        if (seen.has(t.id) || !scenario) continue;
        seen.add(t.id);
        const job = { scenario, model: t.model, config: { key: t.configKey, overrides: t.config }, trial: t.trialIndex };
        progress.onTrialFinished?.(reportFromRow(t, job, judgedAs(job, stored.mode, stored.judge)));
      }
      if (ended) return this.runner.reportFromRecord(runId, scenarios, { close: false });
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }
}
