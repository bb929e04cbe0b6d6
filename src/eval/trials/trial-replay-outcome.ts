// A trial's verdict and figures where it was recorded or replayed (--record, --replay).
import type { TrialRecording } from '../recording/trial-recording';
import type { TrialReplay } from '../recording/trial-replay';
import type { judgeTrial } from './trial-verdict';

/** A replay that asked for something the recording does not hold: the trial is an error naming the first difference. */
export function replayVerdict(replay: TrialReplay | undefined, allowNew = false): ReturnType<typeof judgeTrial> | undefined {
  const miss = replay?.misses[0];
  if (!miss || allowNew) return undefined;
  return { status: 'error', checks: [], failed: [], violations: [], error: `replay miss: ${miss.message}` };
}

/** What a recorded or replayed trial adds to its provenance metadata. */
export function replayFigures(recording?: TrialRecording, replay?: TrialReplay): Record<string, unknown> {
  return {
    ...(recording ? { recordedExchanges: recording.exchanges } : {}),
    ...(replay ? { replayHits: replay.hits, replayMisses: replay.misses.length } : {}),
  };
}
