/** Spec invariant 7: at most 2 mid-chain nudges. */
export const MAX_MID_CHAIN_NUDGES = 2;

/** Spec invariant 8's markers plus corvid's guillemet variants (what its text-mode prompt uses). */
const MARKER = /\[tool result\]|<<\/?tool_output>>|«\/?tool_output»/gi;

export const MID_CHAIN_NUDGE_MESSAGE =
  'STOP. You wrote text that imitates tool output. Tool results come only from the system after you ' +
  'make a real tool call — never write them yourself. Call the tool now in the proper tool-call format ' +
  'and wait for its result.';

export interface MidChainNudge {
  kind: 'mid_chain_nudge';
  /** distinct markers found, as written */
  markers: string[];
  /** the text before the first marker; everything from it on is treated as fabricated */
  strippedText: string;
  message: string;
}

/** Fabricated output with the budget spent: the loop ends with 'nudges_exhausted', keeping only strippedText. */
export interface MidChainNudgesExhausted {
  kind: 'mid_chain_nudges_exhausted';
  markers: string[];
  strippedText: string;
  midChainNudgesSoFar: number;
  maxMidChainNudges: number;
}

/**
 * After tools have run, a text reply containing tool-output markers is the model writing its own
 * results; it must not enter the transcript as an answer. Before any tool ran, markers are left to
 * the ordinary checks (the model may be quoting the format back).
 */
export function detectHallucinatedToolOutput(input: {
  text: string;
  toolsCalledSoFar: number;
  midChainNudgesSoFar: number;
  maxMidChainNudges?: number;
}): MidChainNudge | MidChainNudgesExhausted | null {
  const { text, toolsCalledSoFar, midChainNudgesSoFar, maxMidChainNudges = MAX_MID_CHAIN_NUDGES } = input;
  if (toolsCalledSoFar === 0) return null;
  const found = [...text.matchAll(MARKER)];
  if (found.length === 0) return null;
  const markers = [...new Set(found.map((m) => m[0]))];
  const strippedText = text.slice(0, found[0].index).trim();
  if (midChainNudgesSoFar >= maxMidChainNudges) {
    return { kind: 'mid_chain_nudges_exhausted', markers, strippedText, midChainNudgesSoFar, maxMidChainNudges };
  }
  return { kind: 'mid_chain_nudge', markers, strippedText, message: MID_CHAIN_NUDGE_MESSAGE };
}
