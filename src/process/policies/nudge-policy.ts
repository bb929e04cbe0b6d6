// Standard nudges for a model that answers in text before it has acted (spec invariant 7; phrase
// lists and iteration windows from corvid's detectNudgeReason). Iterations are 1-based.
import type { TEXT_NUDGE_REASONS } from '../../journal/events/loop-vocabulary';

export const MAX_NUDGES = 2;
export const TOO_SHORT_CHARS = 100;
export const WROTE_BUT_DIDNT_ACT_CHARS = 300;

/** nudge.reason also has loopDetected (the loop guard's warning); these are the policy's own. */
export type NudgeReason = (typeof TEXT_NUDGE_REASONS)[number];

export const NUDGE_MESSAGES: Readonly<Record<NudgeReason, string>> = {
  promisedAction: 'Do not describe what you will do — call the tool now. Respond with the tool call itself, not a plan.',
  tooShort:
    'Your reply was incomplete. If the task needs information or changes, call the appropriate tool now; ' +
    'otherwise give your complete answer.',
  wroteButDidntAct:
    'You answered without using any tools. If the task needs files read, commands run or changes made, ' +
    'call the tool now instead of describing the result.',
  askedInsteadOfActing:
    'Do not ask for confirmation — you have the tools you need. Choose the most reasonable option and call the tool now.',
};

const APOS = "['\u2019]";
const PROMISED_ACTION: RegExp[] = [
  new RegExp(
    `\\b(?:i${APOS}ll|i will)\\s+(?:now\\s+|proceed\\s+to\\s+)?` +
      '(?:review|check|analyze|look|fetch|investigate|read|search|run|execute)\\b',
    'i',
  ),
  /\blet me\s+(?:start|begin|check|review|look|examine|read)\b/i,
  /\bworking on (?:it|this|that)\b/i,
  /\bone moment\b/i,
  /\bgetting (?:the|that|this)\b/i,
];
const ASKED_INSTEAD: RegExp[] = [
  /\bwould you like me to\b/i,
  /\bshall i\b/i,
  /\bdo you want me to\b/i,
  /\bwhat would you like\b/i,
  /\bwhich (?:file|tool|command|approach)\b/i,
  /\bshould i\b/i,
];
/** corvid #1743: a short but finished sentence ("Done.") is not cut off. */
const COMPLETE_SENTENCE = /[.!?][\s"'\u201d\u2019)]*$/;

export interface NudgeInput {
  text: string;
  iteration: number;
  maxIterations: number;
  /** tool calls executed so far in this session */
  toolsCalledSoFar: number;
  nudgesSoFar: number;
  maxNudges?: number;
}

export interface NudgeEvidence {
  /** the matched phrase, for the phrase-based reasons */
  phrase?: string;
  length: number;
  iteration: number;
}

export interface NudgeDecision {
  kind: 'nudge';
  reason: NudgeReason;
  message: string;
  evidence: NudgeEvidence;
}

/** A reason applied but the budget is spent: the loop ends with 'nudges_exhausted'. */
export interface NudgesExhausted {
  kind: 'nudges_exhausted';
  reason: NudgeReason;
  nudgesSoFar: number;
  maxNudges: number;
  evidence: NudgeEvidence;
}

/**
 * Checks, in order: promisedAction (iteration ≤ 3), askedInsteadOfActing (≤ 2), tooShort (≤ 2,
 * < 100 chars, no final punctuation), wroteButDidntAct (iteration 1, > 300 chars) — the explicit
 * phrases before the length heuristics. Only while iteration < maxIterations − 1.
 *
 * Never after a tool has run: these nudges push a model that has not acted yet; once tools ran, a
 * text reply is how a tool loop ends, and nudging it would send a finished model back to work
 * (fake tool output after tools ran is the hallucination detector's case).
 */
export function detectNudgeReason(input: NudgeInput): NudgeDecision | NudgesExhausted | null {
  const { text, iteration, maxIterations, toolsCalledSoFar, nudgesSoFar, maxNudges = MAX_NUDGES } = input;
  if (toolsCalledSoFar > 0 || iteration >= maxIterations - 1) return null;
  const found = findReason(text, iteration);
  if (!found) return null;
  const evidence: NudgeEvidence = {
    ...(found.phrase !== undefined && { phrase: found.phrase }),
    length: text.trim().length,
    iteration,
  };
  if (nudgesSoFar >= maxNudges) return { kind: 'nudges_exhausted', reason: found.reason, nudgesSoFar, maxNudges, evidence };
  return { kind: 'nudge', reason: found.reason, message: NUDGE_MESSAGES[found.reason], evidence };
}

function findReason(text: string, iteration: number): { reason: NudgeReason; phrase?: string } | null {
  const trimmed = text.trim();
  const promised = iteration <= 3 ? firstMatch(PROMISED_ACTION, trimmed) : undefined;
  if (promised !== undefined) return { reason: 'promisedAction', phrase: promised };
  const asked = iteration <= 2 ? firstMatch(ASKED_INSTEAD, trimmed) : undefined;
  if (asked !== undefined) return { reason: 'askedInsteadOfActing', phrase: asked };
  if (iteration <= 2 && trimmed.length < TOO_SHORT_CHARS && !COMPLETE_SENTENCE.test(trimmed)) return { reason: 'tooShort' };
  if (iteration === 1 && trimmed.length > WROTE_BUT_DIDNT_ACT_CHARS) return { reason: 'wroteButDidntAct' };
  return null;
}

function firstMatch(patterns: readonly RegExp[], text: string): string | undefined {
  for (const p of patterns) {
    const m = p.exec(text);
    if (m) return m[0];
  }
  return undefined;
}
