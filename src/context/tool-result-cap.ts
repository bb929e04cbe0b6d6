// Spec invariant 6: one tool result may use at most 30% of the window, less under pressure.
export const TOOL_RESULT_MAX_CONTEXT_SHARE = 0.3;
/** Under pressure a result may take this share of the tokens still free. */
export const TOOL_RESULT_REMAINING_SHARE = 0.6;
export const MIN_TOOL_RESULT_CHARS = 1_000;
/** Tokens → chars at the code rate (corvid used 4): results are mostly code/JSON, and at 4 chars/token
 * a code result would overshoot 30% of the window by a third. Loupe's departure; the corvid profile uses 4. */
export const TOOL_RESULT_CHARS_PER_TOKEN = 3;
/** corvid's calculateMaxToolResultChars: max(1000, min(floor(ctx·0.3)·4, floor((ctx − used)·0.6)·4)) (corvid-agent notes §2.3). */
export const CORVID_TOOL_RESULT_CHARS_PER_TOKEN = 4;
/** JSON keeps its head and tail (closing structure, last entries): 70% / 20% of the budget. */
export const JSON_HEAD_SHARE = 0.7;
export const JSON_TAIL_SHARE = 0.2;

export interface CappedToolResult {
  text: string;
  truncated: boolean;
  originalChars: number;
  omittedChars: number;
}

export function calculateMaxToolResultChars(numCtx: number, usedTokens: number, charsPerToken = TOOL_RESULT_CHARS_PER_TOKEN): number {
  const windowCap = Math.floor(numCtx * TOOL_RESULT_MAX_CONTEXT_SHARE) * charsPerToken;
  const remaining = Math.max(0, numCtx - usedTokens);
  const pressureCap = Math.floor(remaining * TOOL_RESULT_REMAINING_SHARE) * charsPerToken;
  return Math.max(MIN_TOOL_RESULT_CHARS, Math.min(windowCap, pressureCap));
}

/** The cap a profile puts on one result: a share of the window (corvid, Loupe), a fixed size (dexto), or none. */
export function toolResultCapFor(
  policy: {
    toolResultCap: 'context_share' | 'fixed_chars' | 'off';
    toolResultMaxChars: number;
    numCtx: number;
    /** chars per token of the share cap (Loupe 3, corvid 4); unset: Loupe's */
    toolResultCharsPerToken?: number;
  },
  usedTokens: number,
): number | null {
  if (policy.toolResultCap === 'off') return null;
  if (policy.toolResultCap === 'fixed_chars') return policy.toolResultMaxChars;
  return calculateMaxToolResultChars(policy.numCtx, usedTokens, policy.toolResultCharsPerToken || TOOL_RESULT_CHARS_PER_TOKEN);
}

const jsonMarker = (n: number) => `\n[... ${n} chars omitted ...]\n`;
const plainMarker = (n: number) => `\n[... truncated, ${n} chars omitted]`;

/** Lengths are UTF-16 code units; the result (marker included) never exceeds maxChars. */
export function capToolResult(text: string, maxChars: number): CappedToolResult {
  const originalChars = text.length;
  if (originalChars <= maxChars) return { text, truncated: false, originalChars, omittedChars: 0 };

  const looksJson = /^\s*[[{]/.test(text);
  const marker = looksJson ? jsonMarker : plainMarker;
  // the omitted count has at most as many digits as the original length
  const budget = Math.max(0, maxChars - marker(originalChars).length);
  let headEnd: number;
  let tailStart: number;
  if (looksJson) {
    headEnd = Math.floor((budget * JSON_HEAD_SHARE) / (JSON_HEAD_SHARE + JSON_TAIL_SHARE));
    tailStart = originalChars - (budget - headEnd);
  } else {
    headEnd = budget;
    tailStart = originalChars;
  }
  headEnd = safeCutEnd(text, headEnd);
  tailStart = safeCutStart(text, tailStart);
  const omittedChars = tailStart - headEnd;
  return {
    text: text.slice(0, headEnd) + marker(omittedChars) + text.slice(tailStart),
    truncated: true,
    originalChars,
    omittedChars,
  };
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Moves a head cut back so it does not end between the halves of a surrogate pair. */
function safeCutEnd(text: string, end: number): number {
  return end > 0 && isHigh(text.charCodeAt(end - 1)) && isLow(text.charCodeAt(end)) ? end - 1 : end;
}

/** Moves a tail cut forward so it does not start on the low half of a surrogate pair. */
function safeCutStart(text: string, start: number): number {
  return start > 0 && start < text.length && isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1)) ? start + 1 : start;
}
