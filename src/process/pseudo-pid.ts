// Direct sessions have no OS process; they get pseudo-pids from a range no real pid reaches here.
export const FIRST_PSEUDO_PID = 800000;

let nextPseudoPid = FIRST_PSEUDO_PID;

export function allocatePseudoPid(): number {
  return nextPseudoPid++;
}
