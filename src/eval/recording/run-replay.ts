// A run replayed from a recorded one: each trial is served from the recorded trial with the same
// cell and index (its final attempt). The recorded run's mode decides how trials are judged, so the
// replay's verdicts and statistics are comparable with the recording's.
import type { Job } from '../run-plan';
import type { TrialMode } from '../trials/trial-verdict';
import type { TrialSelector } from './recording.repository';
import { TrialReplay, type RecordedTrial, type ReplayOptions } from './trial-replay';

export interface ReplaySettings {
  /** the recorded run */
  runId: string;
  pace: ReplayOptions['pace'];
  /** misses go to OLLAMA_HOST (and are recorded) instead of failing the trial */
  allowNew: boolean;
}

export class RunReplay {
  constructor(
    readonly settings: ReplaySettings,
    /** how the recorded run's trials were judged */
    readonly mode: TrialMode,
    private readonly load: (runId: string, t: TrialSelector) => Promise<RecordedTrial | null>,
    private readonly allowNewHosts?: ReplayOptions['allowNew'],
  ) {}

  async forTrial(job: Pick<Job, 'model' | 'trial' | 'config'> & { scenario: { id: string } }): Promise<TrialReplay> {
    const selector = { scenarioId: job.scenario.id, model: job.model, configKey: job.config.key, trialIndex: job.trial };
    const recorded = await this.load(this.settings.runId, selector);
    if (!recorded)
      throw new Error(
        `replay: run ${this.settings.runId} has no finished trial ${selector.scenarioId} [${selector.model} #${selector.trialIndex}${selector.configKey ? ` ${selector.configKey}` : ''}]`,
      );
    return new TrialReplay(recorded, { pace: this.settings.pace, allowNew: this.settings.allowNew ? this.allowNewHosts : undefined });
  }
}
