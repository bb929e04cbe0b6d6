// What a run is made of, and what is left of it. A new run is planned from its scenarios and
// options; everything needed to plan it again (scenario paths and ids, models, configurations,
// trials, mode, judge, seed, recording and replay) is stored with it, so a killed run can be resumed: each
// job (scenario × model × configuration × trial index) with a verdict is kept, each interrupted one
// is rerun as a new attempt that replaces it, and the rest run. Pure.
import { randomUUID } from 'node:crypto';
import type { EvalRunRow } from '../journal/journal-entry';
import type { NewRun } from './eval-recorder';
import type { EvalRunOptions, TrialReport } from './eval-types';
import type { ReplaySettings } from './recording/run-replay';
import { configurations as noAxes, planJobs, type Configuration, type Job } from './run-plan';
import type { Scenario } from './scenario/scenario';
import { trialKey } from './statistics/grouping';
import { drawRunSeed } from './trials/trial-seed';
import type { TrialOutcome } from './statistics/statistics-types';
import { isFinal, outcomeFromRow, reportFromRow, type TrialRowView } from './trials/trial-rows';
import { judgedAs, type TrialMode } from './trials/trial-verdict';
import type { TrialIds } from './eval-types';
import type { RunPersonas } from './sim-models';

export interface RunPlan {
  jobs: Job[];
  mode: TrialMode;
  configs: Configuration[];
  models: string[];
  trialsPerCell: number;
  loupeRevision: string;
  loupeDiffHash: string | null;
  /** the run seed (each trial's is derived from it); null: no seed sent (a run recorded before seeds) */
  seed: number | null;
  /** the run row's contents (everything but its id) */
  run: Omit<NewRun, 'id'>;
}

export interface PlannedTrial {
  /** the job's place in the plan */
  index: number;
  job: Job;
  ids?: TrialIds;
  /** the interrupted attempt this one reruns */
  replaces?: string;
}

/** How a run was asked for, as stored in its `config` (what resuming it needs). */
export interface StoredRunConfig {
  mode: TrialMode;
  judge: 'auto' | 'success';
  models: string[];
  configurations: Configuration[];
  trialsPerCell: number;
  concurrency: number;
  loupeRevision: string;
  /** sha256 of the uncommitted diff when the revision is +dirty */
  loupeDiffHash?: string | null;
  /** absent in runs recorded before seeds (their trials sent none) */
  seed?: number | null;
  record?: boolean;
  replay?: ReplaySettings | null;
  jobCount?: number;
  queued?: boolean;
  /** the personas of its simulated models, as read when it started */
  personas?: RunPersonas;
}

export class ResumeError extends Error {}

export function jobKey(job: Pick<Job, 'model' | 'trial' | 'config'> & { scenario: Pick<Scenario, 'id'> }): string {
  return trialKey({ scenarioId: job.scenario.id, model: job.model, configKey: job.config.key, trial: job.trial });
}

export function planRun(
  scenarios: Scenario[],
  options: EvalRunOptions,
  at: { mode: TrialMode; backend: string; loupeRevision: string; loupeDiffHash?: string | null; queued?: boolean },
): RunPlan {
  const seed = options.seed === undefined ? drawRunSeed() : options.seed;
  const trialsPerCell = Math.max(1, options.trials ?? 1);
  const configs = options.configurations?.length ? options.configurations : noAxes([]);
  const jobs = planJobs(scenarios, { models: options.models, configs, trials: trialsPerCell });
  const models = [...new Set(jobs.map((j) => j.model))];
  const config: StoredRunConfig = {
    mode: at.mode,
    judge: options.judge ?? 'auto',
    models,
    configurations: configs,
    trialsPerCell,
    concurrency: options.concurrency ?? 1,
    loupeRevision: at.loupeRevision,
    loupeDiffHash: at.loupeDiffHash ?? null,
    seed,
    record: Boolean(options.record || options.replay?.allowNew),
    replay: options.replay ?? null,
    jobCount: jobs.length,
    ...(at.queued ? { queued: true } : {}),
    ...(options.personas && Object.keys(options.personas).length ? { personas: options.personas } : {}),
  };
  return {
    jobs,
    mode: at.mode,
    configs,
    models,
    trialsPerCell,
    loupeRevision: at.loupeRevision,
    loupeDiffHash: at.loupeDiffHash ?? null,
    seed,
    run: {
      scenarioCount: scenarios.length,
      loupeVersion: process.env.npm_package_version ?? null,
      options: {
        models: options.models ?? null,
        trials: trialsPerCell,
        backend: at.backend,
        scenarios: scenarios.map((s) => s.id),
        paths: options.paths ?? null,
      },
      config: config as unknown as Record<string, unknown>,
    },
  };
}

/** The run's scenarios, in its order, checked against what its trials ran (a changed scenario would mix two versions in one run). */
export function scenariosOfRun(
  run: Pick<EvalRunRow, 'id' | 'options'>,
  rows: Array<{ scenarioId: string; scenarioHash: string }>,
  loaded: Scenario[],
): Scenario[] {
  const ids = ((run.options as { scenarios?: string[] }).scenarios ?? []) as string[];
  const byId = new Map(loaded.map((s) => [s.id, s]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length)
    throw new ResumeError(`run ${run.id}: scenario(s) not found: ${missing.join(', ')} (give the paths of the run's scenarios)`);
  const changed = ids.filter((id) => rows.some((r) => r.scenarioId === id && r.scenarioHash !== byId.get(id)!.hash));
  if (changed.length) throw new ResumeError(`run ${run.id}: scenario(s) changed since the run started: ${changed.join(', ')}`);
  return ids.map((id) => byId.get(id)!);
}

export interface ResumedRun {
  plan: RunPlan;
  runRow: EvalRunRow;
  /** what the run was asked to do, as options of a run */
  options: EvalRunOptions;
  todo: PlannedTrial[];
  kept: Array<{ index: number; result: { report: TrialReport; outcome: TrialOutcome } }>;
}

type Row = TrialRowView & { scenarioHash: string; attempt: number };

export function resumePlan(run: EvalRunRow, rows: Row[], loaded: Scenario[]): ResumedRun {
  const stored = run.config as unknown as StoredRunConfig;
  const scenarios = scenariosOfRun(run, rows, loaded);
  const options: EvalRunOptions = {
    models: ((run.options as { models?: string[] | null }).models ?? undefined) || undefined,
    configurations: stored.configurations,
    trials: stored.trialsPerCell,
    concurrency: stored.concurrency,
    judge: stored.judge,
    record: stored.record,
    replay: stored.replay ?? undefined,
    paths: ((run.options as { paths?: string[] | null }).paths ?? undefined) || undefined,
    personas: stored.personas,
  };
  const jobs = planJobs(scenarios, { models: options.models, configs: stored.configurations, trials: stored.trialsPerCell });
  const plan: RunPlan = {
    jobs,
    mode: stored.mode,
    configs: stored.configurations,
    models: [...new Set(jobs.map((j) => j.model))],
    trialsPerCell: stored.trialsPerCell,
    loupeRevision: stored.loupeRevision,
    loupeDiffHash: stored.loupeDiffHash ?? null,
    seed: stored.seed ?? null,
    run: { scenarioCount: run.scenarioCount, loupeVersion: run.loupeVersion, options: run.options, config: run.config },
  };
  const byKey = new Map<string, Row[]>();
  for (const r of rows) {
    const key = trialKey({ scenarioId: r.scenarioId, model: r.model, configKey: r.configKey, trial: r.trialIndex });
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  const todo: PlannedTrial[] = [];
  const kept: ResumedRun['kept'] = [];
  jobs.forEach((job, index) => {
    const attempts = (byKey.get(jobKey(job)) ?? []).sort((a, b) => a.attempt - b.attempt);
    const final = attempts.filter(isFinal).at(-1);
    if (final) {
      kept.push({
        index,
        result: { report: reportFromRow(final, job, judgedAs(job, stored.mode, stored.judge)), outcome: outcomeFromRow(final) },
      });
      return;
    }
    const last = attempts.at(-1);
    todo.push({
      index,
      job,
      ids: { trialId: randomUUID(), sessionId: randomUUID(), attempt: (last?.attempt ?? 0) + 1 },
      ...(last ? { replaces: last.id } : {}),
    });
  });
  return { plan, runRow: run, options, todo, kept };
}
