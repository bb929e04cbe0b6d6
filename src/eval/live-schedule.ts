// The order and pacing of a run's trials. Live (a real Ollama, not replayed): grouped by (model,
// runner options), each group warmed once with its options when it opens, and a group boundary
// drains (live-groups.ts, live-group-gate.ts). Scripted and replayed runs: the plan's order, no gate.
import type { LlmProvider } from '../provider/llm-provider';
import { LiveGroupGate } from './live-group-gate';
import { orderLiveTrials, type LiveGroup, type RunnerOptions } from './live-groups';
import type { PlannedTrial } from './run-resume';

export interface TrialSchedule {
  /** the trials in the order they start */
  todo: readonly PlannedTrial[];
  /**
   * Waits until the trial at `position` may start (live: its group is open), and gives the warm-up
   * its session waits for (none when nothing is warmed). Call `close()` once the trial is over.
   */
  open(position: number): Promise<{ warmed?: Promise<void> }>;
  close(): void;
}

export function trialSchedule(
  todo: readonly PlannedTrial[],
  live: { configuredNumCtx?: number; warm: (group: LiveGroup) => Promise<void> } | undefined,
): TrialSchedule {
  if (!live) return { todo, open: () => Promise.resolve({}), close: () => undefined };
  const ordered = orderLiveTrials(todo, live.configuredNumCtx);
  const gate = new LiveGroupGate();
  return {
    todo: ordered,
    async open(position) {
      const { group, groupIndex } = ordered[position];
      // the group's warm-up starts when it opens: never while the previous group's trials run on the model
      await gate.enter(groupIndex, () => void live.warm(group));
      return { warmed: live.warm(group) };
    },
    close: () => gate.leave(),
  };
}

/**
 * The one place a live run loads a model for its trials: with the runner options its requests will
 * carry (and the provider's keep_alive), so the first measured request does not reload it.
 */
export function warmRunner(provider: Pick<LlmProvider, 'warm'>, model: string, options: RunnerOptions): Promise<void> {
  return provider.warm(model, { numCtx: options.numCtx });
}
