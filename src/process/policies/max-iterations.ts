// Spec invariant 2: the loop runs at most MAX_TOOL_ITERATIONS turns. A turn is one step model call
// that answered, whatever led to it: a tool result, a nudge's or a mid-chain nudge's re-ask, a loop
// warning (gemini-cli) or an approved doom-loop ask. So a step that would go on at the cap stops
// instead. Not turns: compaction calls (context management inside a step) and the summary epilogue
// (invariant 9, the one call after the break); a request the server refused and that is sent again
// after recovery (tools off, context shrunk) is the same turn.
export const MAX_TOOL_ITERATIONS = 25;

/** What went on at the cap would have cost another turn, and so did not happen. */
export type CapRuledOut = 'nudge' | 'mid_chain_nudge' | 'loop_warning' | 'doom_loop_ask';

export interface MaxIterationsBreak {
  kind: 'max_iterations';
  iteration: number;
  maxIterations: number;
  instead?: CapRuledOut;
}

/** `iteration` is the number of model steps completed so far (1-based). */
export function detectMaxIterations(iteration: number, maxIterations = MAX_TOOL_ITERATIONS): MaxIterationsBreak | null {
  return iteration >= maxIterations ? { kind: 'max_iterations', iteration, maxIterations } : null;
}

/** The cap's break for a step that would go on with `instead`, or null while turns are left. */
export function capRulesOut(iteration: number, maxIterations: number, instead: CapRuledOut): MaxIterationsBreak | null {
  const cap = detectMaxIterations(iteration, maxIterations);
  return cap && { ...cap, instead };
}
