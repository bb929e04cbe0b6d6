// Live runs against a real Ollama: a request whose num_ctx differs from the loaded runner's makes the
// server reload the model (server/sched.go, needsReload), and the load lands in that request's timing.
// So a live run's trials are ordered in groups of one model and one set of runner options, each group
// warmed once with its options, and the scheduler drains a group before the next one starts: trials
// with different num_ctx never run against each other. Pure.
import { DEFAULT_NUM_CTX } from '../process/policies/loop-settings';
import { settingsOf } from '../session-spec/session-settings';
import type { Job } from './run-plan';

/**
 * The request options that decide which runner serves a request (num_batch and num_gpu are the
 * provider's, the same for every trial of a run, so only num_ctx varies between jobs).
 */
export interface RunnerOptions {
  numCtx: number;
}

export interface LiveGroup {
  /** `model|num_ctx=…` */
  key: string;
  model: string;
  options: RunnerOptions;
}

/** The num_ctx a job's requests carry: its configuration's, else its scenario's, else OLLAMA_NUM_CTX, else Loupe's default. */
export function jobNumCtx(job: Pick<Job, 'scenario' | 'config'>, configuredNumCtx?: number): number {
  return settingsOf(job.config.overrides).loopSettings.numCtx ?? job.scenario.loopSettings.numCtx ?? configuredNumCtx ?? DEFAULT_NUM_CTX;
}

export function liveGroupOf(job: Pick<Job, 'scenario' | 'config' | 'model'>, configuredNumCtx?: number): LiveGroup {
  const options = { numCtx: jobNumCtx(job, configuredNumCtx) };
  return { key: `${job.model}|num_ctx=${options.numCtx}`, model: job.model, options };
}

/**
 * The trials in live order: grouped by (model, runner options), groups in the order their first
 * trial comes in the plan (models stay in the order given), trials kept in plan order within a group.
 * Each trial keeps its own `index` (its place in the plan), so results and resume are unaffected.
 */
export function orderLiveTrials<T extends { job: Job }>(
  todo: readonly T[],
  configuredNumCtx?: number,
): Array<T & { group: LiveGroup; groupIndex: number }> {
  const groups = new Map<string, { group: LiveGroup; items: T[] }>();
  for (const item of todo) {
    const group = liveGroupOf(item.job, configuredNumCtx);
    const entry = groups.get(group.key) ?? { group, items: [] };
    entry.items.push(item);
    groups.set(group.key, entry);
  }
  return [...groups.values()].flatMap(({ group, items }, groupIndex) => items.map((item) => ({ ...item, group, groupIndex })));
}

/** The group a live run warms first (while its database starts), or undefined for no jobs. */
export function firstLiveGroup(jobs: ReadonlyArray<Pick<Job, 'scenario' | 'config' | 'model'>>, configuredNumCtx?: number) {
  return jobs.length ? liveGroupOf(jobs[0], configuredNumCtx) : undefined;
}
