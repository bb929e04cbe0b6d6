// What the loop has done so far in a session, as a value: each step of the loop reports what
// happened and gets the next counters back. The nudge policies and session_finished read them.

export interface LoopCounters {
  /** iterations opened (loop steps and the epilogue) */
  iterations: number;
  /** model calls made (compaction calls included) */
  inferences: number;
  /** tool calls run to an outcome */
  toolsCalled: number;
  nudges: number;
  midChainNudges: number;
}

export type LoopHappening =
  { kind: 'iteration_started' } | { kind: 'inference_made' } | { kind: 'tool_ran' } | { kind: 'nudged' } | { kind: 'mid_chain_nudged' };

export const NO_COUNTS: Readonly<LoopCounters> = { iterations: 0, inferences: 0, toolsCalled: 0, nudges: 0, midChainNudges: 0 };

export function countLoop(counters: LoopCounters, happening: LoopHappening): LoopCounters {
  switch (happening.kind) {
    case 'iteration_started':
      return { ...counters, iterations: counters.iterations + 1 };
    case 'inference_made':
      return { ...counters, inferences: counters.inferences + 1 };
    case 'tool_ran':
      return { ...counters, toolsCalled: counters.toolsCalled + 1 };
    case 'nudged':
      return { ...counters, nudges: counters.nudges + 1 };
    case 'mid_chain_nudged':
      return { ...counters, midChainNudges: counters.midChainNudges + 1 };
  }
}
