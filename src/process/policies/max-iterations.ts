/** Spec invariant 2. */
export const MAX_TOOL_ITERATIONS = 25;

export interface MaxIterationsBreak {
  kind: 'max_iterations';
  iteration: number;
  maxIterations: number;
}

/** `iteration` is the number of model steps completed so far (1-based). */
export function detectMaxIterations(iteration: number, maxIterations = MAX_TOOL_ITERATIONS): MaxIterationsBreak | null {
  return iteration >= maxIterations ? { kind: 'max_iterations', iteration, maxIterations } : null;
}
