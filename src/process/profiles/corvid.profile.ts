// corvid-agent's direct process, as direct-process.spec.md and ollama-provider.spec.md specify it.
// Where they are silent the profile follows ../shared/reference/corvid-agent-notes.md (the code the
// specs describe), and says so.
import type { LoopProfile } from './loop-profile';

const DP = 'direct-process.spec.md';
const OP = 'ollama-provider.spec.md';
const NOTES = 'corvid-agent notes §2.2';

export const corvidProfile: LoopProfile = {
  name: 'corvid',
  system: 'corvid-agent (direct process for Ollama)',
  specs: [DP, OP],
  policies: {
    maxToolIterations: 25,
    repeatThreshold: 3,
    repeatScope: 'session',
    callKey: 'normalized',
    sameToolThreshold: 5,
    cycleRepetitions: 0,
    cycleMaxPeriod: 5,
    errorRepeatThreshold: 0,
    contentLoopThreshold: 0,
    doomLoop: 'break',
    loopNudges: 0,
    nudgePolicy: 'corvid',
    maxNudges: 2,
    hallucinationGuard: 'replies_without_calls',
    maxMidChainNudges: 2,
    epilogue: 'summary',
    tokenEstimator: 'content_aware',
    trimMaxMessages: 40,
    trimKeepRecent: 30,
    trimBudgetRatio: 0.7,
    trimBudgetTokens: 0,
    trimSummaries: true,
    toolResultCap: 'context_share',
    toolResultMaxChars: 0,
    prune: 'off',
    pruneProtectTokens: 0,
    pruneMinimumTokens: 0,
    pruneKeepTurns: 0,
    pruneProtectedTools: [],
    overflowTrigger: 'off',
    overflowRatio: 0,
    overflowAction: 'compact',
    compactionKeep: 'turns',
    compactionKeepTurns: 2,
    compactionKeepShare: 0,
    compactionValidation: 'none',
    preflight: 'off',
    providerOverflow: 'compact',
    retrySchedule: 'corvid',
    toolExecution: 'sequential',
    onRejection: 'continue',
  },
  choices: {
    iterations: { choice: '25, then the epilogue', source: `${DP} invariant 2` },
    repeat: {
      choice: '3 in a row across the session, normalized (sorted keys, trimmed whitespace) → break',
      source: `${DP} invariant 3, MAX_REPEATS = 2`,
    },
    sameTool: { choice: '5 in a row → break', source: `${DP} invariant 4, MAX_SAME_TOOL = 4` },
    cycle: { choice: 'none', source: `${DP} specifies none` },
    errorRepeat: { choice: 'none', source: `${DP} specifies none` },
    contentLoop: { choice: 'none', source: `${DP} specifies none` },
    onLoop: { choice: 'break', source: `${DP} invariants 3, 4` },
    nudges: { choice: 'promisedAction, tooShort, wroteButDidntAct, askedInsteadOfActing; at most 2', source: `${DP} invariant 7` },
    hallucination: {
      choice: 'in a reply without calls, after tools ran: strip `[Tool Result]`, `<<tool_output>>`; nudge, at most 2',
      source: `${DP} invariants 7, 8; ${NOTES} (checked only when the reply has no tool calls)`,
    },
    epilogue: { choice: 'one tools-disabled summary call', source: `${DP} invariant 9` },
    tokens: { choice: 'content-aware: ~0.33 tokens/char for code, ~0.25 for prose', source: `${DP} invariant 11` },
    trim: {
      choice: '> 40 messages (keep 30) or > 70% of the window; keeps the prompt; dropped results summarized in one line each',
      source: `${DP} invariants 5, 12, MAX_MESSAGES = 40, KEEP_RECENT = 30`,
    },
    toolCap: { choice: '30% of the window, less under pressure, at least 1,000 chars', source: `${DP} invariant 6` },
    prune: { choice: 'none', source: `${DP} specifies none` },
    overflow: { choice: 'none (the 70% trim keeps the context small)', source: `${DP} invariant 5` },
    compaction: {
      choice: 'only when the server rejects the context: summary, recent steps kept, no validation',
      source: `${NOTES} (summarizeConversation on a context-overflow error); ${DP} is silent`,
    },
    preflight: { choice: 'nothing', source: `${DP} specifies nothing` },
    providerOverflow: { choice: 'compact and retry', source: `${NOTES}` },
    retry: {
      choice:
        '3 retries at 1 s, 2 s, 4 s + 0–500 ms jitter; connection resets, 503, 429, OOM retried; model not found and bad requests fail at once; Retry-After not read',
      source: `${OP} invariant 12; corvid-agent notes (delay 1000·2^attempt + rand(0–500))`,
    },
    toolExecution: { choice: 'one after another', source: `${NOTES} (calls handled in turn); ${DP} is silent` },
    rejection: { choice: 'denial text to the model; the loop goes on', source: `${DP} error case "Permission denied"` },
  },
};
