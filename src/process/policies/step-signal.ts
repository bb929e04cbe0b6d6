// What a finished step tells the loop, in opencode's order (stream-processor-deep-dive.md, "The
// Streaming Loop": `if (needsCompaction) return "compact"; if (blocked) return "stop"; return
// "continue"`): a step past the profile's overflow trigger compacts and goes on even when one of its
// calls was rejected; only a step that needs no compaction stops on the rejection. Pure.

export type StepSignal = 'compact' | 'stop' | 'continue';

export function stepSignal(input: {
  /** the step's prompt tokens are past the profile's overflow trigger (opencode: 90% of the window) */
  needsCompaction: boolean;
  /** a call of the step was rejected and the profile stops on rejection */
  blocked: boolean;
}): StepSignal {
  if (input.needsCompaction) return 'compact';
  if (input.blocked) return 'stop';
  return 'continue';
}
