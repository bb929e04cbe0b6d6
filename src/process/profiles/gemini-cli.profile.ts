// gemini-cli's agent loop, as context-management-plan.md ("Gemini-CLI Approach") and
// ../shared/reference/loop-control-prior-art.md §2 describe it.
import type { LoopProfile } from './loop-profile';

const CP = 'context-management-plan.md "Gemini-CLI Approach"';
const PA = 'loop-control-prior-art.md §2';

export const geminiCliProfile: LoopProfile = {
  name: 'gemini-cli',
  system: 'gemini-cli',
  specs: [CP, PA],
  policies: {
    maxToolIterations: 100,
    repeatThreshold: 5,
    repeatScope: 'session',
    callKey: 'exact',
    sameToolThreshold: 0,
    cycleRepetitions: 5,
    cycleMaxPeriod: 5,
    errorRepeatThreshold: 0,
    contentLoopThreshold: 10,
    doomLoop: 'nudge',
    loopNudges: 1,
    nudgePolicy: 'off',
    maxNudges: 0,
    hallucinationGuard: 'off',
    maxMidChainNudges: 0,
    epilogue: 'none',
    tokenEstimator: 'gemini',
    trimMaxMessages: 0,
    trimKeepRecent: 0,
    trimBudgetRatio: 0,
    trimBudgetTokens: 0,
    trimSummaries: false,
    toolResultCap: 'off',
    toolResultMaxChars: 0,
    prune: 'fixed',
    pruneProtectTokens: 50_000,
    pruneMinimumTokens: 30_000,
    pruneKeepTurns: 1,
    pruneProtectedTools: [],
    overflowTrigger: 'context_ratio',
    overflowRatio: 0.5,
    overflowAction: 'compact',
    compactionKeep: 'share',
    compactionKeepTurns: 0,
    compactionKeepShare: 0.3,
    compactionValidation: 'reject_empty_or_inflated',
    preflight: 'refuse',
    providerOverflow: 'fail',
    retrySchedule: 'gemini-cli',
    toolExecution: 'parallel',
    onRejection: 'continue',
  },
  choices: {
    iterations: { choice: '100', source: `${PA} (MAX_TURNS = 100)` },
    repeat: {
      choice: '5 identical calls in a row (name + exact JSON arguments)',
      source: `${PA} TOOL_CALL_LOOP_THRESHOLD = 5, cycle length 1`,
    },
    sameTool: { choice: 'none', source: `${PA} feature matrix` },
    cycle: { choice: 'a sequence of 2–5 calls repeated 5 times', source: `${PA} (cycle length k of 1–5, 5 times in a row)` },
    errorRepeat: { choice: 'none', source: `${PA} feature matrix` },
    contentLoop: {
      choice: 'a 50-char chunk ≥ 10 times, on average ≤ 250 chars apart, outside code blocks; reset by a tool call',
      source: `${PA} CONTENT_LOOP_THRESHOLD = 10, CONTENT_CHUNK_SIZE = 50`,
    },
    onLoop: {
      choice: 'two strikes: the first warns the model ("Potential loop detected…") and restarts detection, the second ends the session',
      source: `${PA} "On detection — two strikes"`,
    },
    nudges: { choice: 'none', source: `${PA} feature matrix (only the loop warning)` },
    hallucination: { choice: 'none: the text stays', source: `${PA} feature matrix` },
    epilogue: { choice: 'none', source: `${PA} feature matrix` },
    tokens: {
      choice: 'ASCII 0.25 tokens/char, other characters 1.5; over 100k chars, length / 4',
      source: `${PA} utils/tokenCalculation.ts (${CP} says ~1.3 for non-ASCII; the survey's code reading is newer)`,
    },
    trim: { choice: 'none (compression instead)', source: `${CP}` },
    toolCap: { choice: 'none', source: `${PA} (the 50k budget applies inside compression)` },
    prune: {
      choice: 'tool output masked past the newest 50k tokens, latest turn protected, only if ≥ 30k prunable',
      source: `${PA} toolOutputMaskingService`,
    },
    overflow: {
      choice: 'last prompt ≥ 50% of the window → compress',
      source: `${CP} (50% threshold); ${PA} DEFAULT_COMPRESSION_TOKEN_THRESHOLD`,
    },
    compaction: {
      choice:
        'LLM summary of the older 70%, newest 30% kept (split at a step boundary); empty or inflated → failed, later overflows only truncate',
      source: `${PA} COMPRESSION_PRESERVE_THRESHOLD = 0.3, COMPRESSION_FAILED_INFLATED_TOKEN_COUNT; the verification call is left out`,
    },
    preflight: {
      choice: 'the new messages estimated over window − last prompt → not sent; the session ends (context_overflow)',
      source: `${PA} ContextWindowWillOverflow`,
    },
    providerOverflow: { choice: 'fails the session', source: `${PA} (retries never 400)` },
    retry: {
      choice:
        '9 retries (10 attempts), 5 s doubling to 30 s, ±30% jitter; network errors, 429, 499 and 5xx; never 400; Retry-After not read',
      source: `${PA} utils/retry.ts`,
    },
    toolExecution: { choice: 'all at once', source: `${CP} ("Parallel via Promise.all()")` },
    rejection: { choice: 'denial text to the model; the loop goes on', source: `${CP} and ${PA} are silent; as the direct-process spec` },
  },
};
