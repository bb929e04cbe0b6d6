// What a trial is before anything runs, derived from its job and the run: its ids, the loop settings
// (the configuration's overrides win over the scenario's own `config:`, that is what a run varies),
// its seed, how it is judged, and the report and outcome it has if it goes no further (an error
// with nothing counted), and the row announcing it. Pure: the trial runner does the I/O.
import type { NewTrial } from '../eval-recorder';
import type { TrialIds, TrialReport } from '../eval-types';
import { profileOf, type Job } from '../run-plan';
import { settingsOf, type SessionSettings } from '../../session-spec/session-settings';
import type { TrialOutcome } from '../statistics/statistics-types';
import { EMPTY_LATENCY } from './trial-rows';
import { trialSeed } from './trial-seed';
import { judgedAs, type JudgedBy, type TrialMode } from './trial-verdict';

export interface TrialPlan {
  job: Job;
  trialId: string;
  sessionId: string;
  /** the configuration's settings (its `config:` overrides, in the loop's terms) */
  axis: SessionSettings;
  profile: string;
  loopSettings: SessionSettings['loopSettings'] & { profile: string };
  /** the scenario's script was written for another profile's loop: only outcomes count */
  foreign: boolean;
  /** null: the run sends no seed (a run recorded before seeds) */
  seed: number | null;
  judgeAs: JudgedBy;
  /** the report of a trial that went no further than its plan */
  base: TrialReport;
  /** the outcome of a trial that went no further than its plan */
  outcome: TrialOutcome;
  /** how the logs name the trial: `scenario [model #trial config]` */
  label: string;
}

export function planTrial(
  job: Job,
  run: { mode: TrialMode; judge?: 'auto' | 'success'; runSeed?: number | null },
  ids: Required<Pick<TrialIds, 'trialId' | 'sessionId'>>,
): TrialPlan {
  const { scenario, model, trial, config } = job;
  const axis = settingsOf(config.overrides);
  const profile = profileOf(job);
  const seed =
    typeof run.runSeed === 'number' ? trialSeed(run.runSeed, { scenarioId: scenario.id, model, configKey: config.key, trial }) : null;
  const judgeAs = judgedAs(job, run.mode, run.judge);
  return {
    job,
    ...ids,
    axis,
    profile,
    loopSettings: { ...scenario.loopSettings, ...axis.loopSettings, profile },
    foreign: !scenario.profiles.includes(profile),
    seed,
    judgeAs,
    base: {
      trialId: ids.trialId,
      scenarioId: scenario.id,
      title: scenario.title,
      file: scenario.file,
      spec: scenario.spec,
      model,
      trial,
      configKey: config.key,
      profile,
      judgedBy: judgeAs,
      sessionId: null,
      traceId: null,
      status: 'error',
      terminationReason: null,
      expectations: [],
      failedExpectations: [],
      invariantViolations: [],
      iterations: 0,
      events: 0,
      durationMs: 0,
    },
    outcome: {
      scenarioId: scenario.id,
      model,
      configKey: config.key,
      trial,
      status: 'error',
      terminationReason: null,
      pathologies: {},
      tokens: { input: 0, output: 0 },
      latency: EMPTY_LATENCY,
      iterations: 0,
      scenarioHash: scenario.hash,
      ...(seed !== null ? { seed } : {}),
    },
    label: `${scenario.id} [${model} #${trial}${config.key ? ` ${config.key}` : ''}]`,
  };
}

/** The row that announces the trial to its run (`attempt` 2, 3…: a rerun of an interrupted trial). */
export function startedTrial(plan: TrialPlan, run: { mode: TrialMode; workerId?: string | null }, attempt: number): NewTrial {
  const { scenario, model, trial, config } = plan.job;
  return {
    id: plan.trialId,
    scenarioId: scenario.id,
    scenarioTitle: scenario.title,
    scenarioFile: scenario.file,
    scenarioHash: scenario.hash,
    model,
    trialIndex: trial,
    configKey: config.key,
    config: config.overrides,
    mode: run.mode,
    attempt,
    workerId: run.workerId ?? null,
  };
}
