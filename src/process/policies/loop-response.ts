// What a profile does about a detected loop. Repeats, cycles and repeated text are "doom loops" the
// profile may answer by breaking (corvid), asking a person (opencode, repeats only) or warning the
// model first (gemini-cli: strike 1 warns and restarts detection, strike 2 ends the session). Same-
// tool runs, repeated errors and the iteration cap always break.
import type { LoopBreakKind } from './termination';

export type LoopResponse = 'break' | 'ask' | 'warn';

const DOOM_LOOPS: ReadonlySet<LoopBreakKind> = new Set(['repeat_break', 'cycle_break', 'content_loop_break']);

/** gemini-cli's strike-1 message (loop-control-prior-art.md §2, client.ts). */
export const LOOP_WARNING_MESSAGE =
  'System: Potential loop detected. Details: you have been repeating the same actions or text. ' +
  "Please take a step back and confirm you're making forward progress. If not, analyze your previous " +
  'actions and try a different approach. Avoid repeating the same tool calls.';

export function decideLoopResponse(input: {
  kind: LoopBreakKind;
  doomLoop: 'break' | 'ask' | 'nudge';
  strikesSoFar: number;
  loopNudges: number;
}): LoopResponse {
  if (!DOOM_LOOPS.has(input.kind)) return 'break';
  if (input.doomLoop === 'ask') return input.kind === 'repeat_break' ? 'ask' : 'break';
  if (input.doomLoop === 'nudge') return input.strikesSoFar < input.loopNudges ? 'warn' : 'break';
  return 'break';
}
