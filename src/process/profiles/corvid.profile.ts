// corvid-agent's direct process, as direct-process.spec.md and ollama-provider.spec.md specify it.
// Where they are silent the profile follows ../shared/reference/corvid-agent-notes.md (the code the
// specs describe), and says so.
import { CORVID_CODE_RATIO } from '../../context/token-estimation';
import { CORVID_TOOL_RESULT_CHARS_PER_TOKEN, TOOL_RESULT_MAX_CONTEXT_SHARE } from '../../context/tool-result-cap';
import { RETRY_SCHEDULES } from '../../provider/ollama/retry-schedules';
import { passage, silent, states, unused } from './citations';
import type { LoopProfile } from './loop-profile';

const DP = 'direct-process.spec.md';
const dp = states(DP);
const notes = states('corvid-agent-notes.md');
const op = states('ollama-provider.spec.md');
const OVERFLOW_STEP = 'On a context-overflow error: summarizeConversation, keep the last 4 messages, retry once.';
const unpruned = unused({ prune: 'off' });

export const corvidProfile: LoopProfile = {
  name: 'corvid',
  system: 'corvid-agent (direct process for Ollama)',
  specs: [DP, 'ollama-provider.spec.md', 'corvid-agent-notes.md'],
  settings: {
    maxToolIterations: [25, dp('invariant 2', 'The agentic loop runs at most MAX_TOOL_ITERATIONS (25) turns', '25')],
    capRecovery: ['none', silent(DP, 'off', 'at the cap the loop ends and the summary epilogue runs (invariants 2, 9); no extra turn')],
    graceTurnMs: [0, unused({ capRecovery: 'none' })],
    repeatThreshold: [
      3,
      dp(
        'invariant 3',
        'If the same tool call (normalized: sorted keys, trimmed whitespace) repeats 3 times consecutively, the loop breaks',
        '3',
      ),
    ],
    repeatScope: [
      'session',
      dp('invariant 3', 'repeats 3 times consecutively', undefined, { note: 'consecutive calls, whichever replies they came in' }),
    ],
    repeatCheck: [
      'before_run',
      notes('§2.2 "Each iteration" step 3', 'If the response has tool calls, apply these guards:', undefined, {
        note: "the guards run on the response's calls before they run, so the third identical call never runs",
      }),
    ],
    callKey: ['normalized', dp('invariant 3', 'normalized: sorted keys, trimmed whitespace')],
    sameToolThreshold: [
      5,
      dp('invariant 4', 'If the same tool name is called 5 times consecutively (even with different args), the loop breaks', '5'),
    ],
    cycleRepetitions: [0, silent(DP, 'off', 'the spec has no cycle detector')],
    cycleMaxPeriod: [5, unused({ cycleRepetitions: 0 })],
    errorRepeatThreshold: [0, silent(DP, 'off', 'the spec has no repeated-error detector')],
    contentLoopThreshold: [0, silent(DP, 'off', 'the spec has no content-loop detector')],
    doomLoop: ['break', dp('invariant 3', 'the loop breaks with needsSummary = true')],
    loopNudges: [0, unused({ doomLoop: 'break' })],
    nudgePolicy: [
      'corvid',
      dp('invariant 7', 'Standard nudges (promisedAction, tooShort, wroteButDidntAct, askedInsteadOfActing) limited to 2'),
    ],
    maxNudges: [
      2,
      dp('invariant 7', 'Standard nudges (promisedAction, tooShort, wroteButDidntAct, askedInsteadOfActing) limited to 2', '2'),
    ],
    hallucinationGuard: [
      'replies_without_calls',
      dp(
        'invariant 8',
        'If model generates [Tool Result], <<tool_output>>, or <</tool_output>> in its output after tools have been called, the content is stripped and a mid-chain nudge is injected',
        undefined,
        {
          also: [
            passage('corvid-agent-notes.md')('§2.2 "Each iteration" step 4', 'If there are no tool calls, the checks run in this order:'),
          ],
        },
      ),
    ],
    maxMidChainNudges: [2, dp('invariant 7', 'Mid-chain nudges (hallucinated tool results) also limited to 2', '2')],
    epilogue: ['summary', dp('invariant 9', 'a final tools-disabled inference call produces a summary')],
    queueInjection: ['all', silent(DP, 'loupe', 'the spec says nothing of messages sent mid-loop; as Loupe')],
    tokenEstimator: [
      'corvid',
      notes(
        '§2.3 Token estimation',
        'v1 and the spec text: ratio above 0.08 gives 3 characters per token, otherwise 4.',
        { text: '0.08', constant: { name: 'CORVID_CODE_RATIO', value: CORVID_CODE_RATIO } },
        {
          also: [
            passage(DP)(
              'invariant 11',
              'Uses content-aware estimation: ~0.33 tokens/char for code-heavy content, ~0.25 tokens/char for prose',
            ),
          ],
        },
      ),
    ],
    trimMaxMessages: [40, dp('invariant 5', 'trimMessages() triggers when message count exceeds 40', '40')],
    trimKeepRecent: [30, dp('Configuration', '| KEEP_RECENT | 30 | Messages to keep after count-based trim |', '30')],
    trimBudgetRatio: [0.7, dp('invariant 5', 'or estimated tokens exceed 70% of context window', '70%')],
    trimBudgetTokens: [0, silent(DP, 'off', 'the budget is a share of the window only (invariant 5)')],
    trimSummaries: [
      true,
      dp('invariant 12', 'discarded tool results are replaced with one-line summaries instead of being dropped entirely'),
    ],
    toolResultCap: [
      'context_share',
      dp(
        'invariant 6',
        'limits any single tool result to 30% of context window, scaling down further under budget pressure. Minimum 1,000 chars',
        {
          text: '30%',
          constant: { name: 'TOOL_RESULT_MAX_CONTEXT_SHARE', value: TOOL_RESULT_MAX_CONTEXT_SHARE },
        },
      ),
    ],
    toolResultMaxChars: [0, unused({ toolResultCap: 'context_share' })],
    toolResultCharsPerToken: [
      CORVID_TOOL_RESULT_CHARS_PER_TOKEN,
      notes('§2.3 calculateMaxToolResultChars', 'max(1000, min(floor(ctx*0.3)*4, floor((ctx − used)*0.6)*4))', '4'),
    ],
    prune: ['off', silent(DP, 'off', 'the spec has no pruning')],
    pruneProtectTokens: [0, unpruned],
    pruneMinimumTokens: [0, unpruned],
    pruneKeepTurns: [0, unpruned],
    pruneProtectedTools: [[], unpruned],
    pruneAfter: ['each_request', unpruned],
    pruneCompletedOnly: [false, unpruned],
    overflowTrigger: ['off', silent(DP, 'off', 'no check on actual token counts; the 70% trim (invariant 5) keeps the context small')],
    overflowRatio: [0, unused({ overflowTrigger: 'off' })],
    outputReserve: ['window_quarter', unused({ overflowTrigger: 'off' })],
    overflowAction: ['compact', unused({ overflowTrigger: 'off', preflight: 'off' })],
    compactionKeep: [
      'turns',
      notes('§2.2 "Each iteration" step 2', OVERFLOW_STEP, undefined, {
        note: 'the last 4 messages: the last 2 steps (a reply and its results)',
      }),
    ],
    compactionKeepTurns: [
      2,
      notes('§2.2 "Each iteration" step 2', OVERFLOW_STEP, undefined, {
        note: 'kept by steps, not messages: 4 messages are 2 steps only when each step is one call and one result',
      }),
    ],
    compactionKeepShare: [0, unused({ compactionKeep: 'turns' })],
    compactionValidation: ['none', silent([DP, 'corvid-agent-notes.md'], 'off', 'no check of the summary is described')],
    compactionBaseline: ['replaced_estimate', unused({ compactionValidation: 'none' })],
    preflight: ['off', silent(DP, 'off', 'nothing is checked before sending')],
    providerOverflow: ['compact', notes('§2.2 "Each iteration" step 2', OVERFLOW_STEP)],
    providerOverflowRetries: [1, notes('§2.2 "Each iteration" step 2', OVERFLOW_STEP, 'once')],
    retrySchedule: [
      'corvid',
      op(
        'invariant 12',
        'Retryable errors (connection reset, 503, 429, OOM) are retried up to 3 times with exponential backoff (1s, 2s, 4s) + jitter',
        { text: '3', constant: { name: 'RETRY_SCHEDULES.corvid.maxRetries', value: RETRY_SCHEDULES.corvid.maxRetries } },
        { also: [passage('corvid-agent-notes.md')('§2.4 Retry', 'MAX_RETRIES=3, with delay 1000·2^attempt + rand(0–500) ms')] },
      ),
    ],
    callIds: [
      'provider',
      notes('§2.1', 'Call IDs are crypto.randomUUID().slice(0,8).', undefined, { note: 'named where the calls are read, not by the loop' }),
    ],
    toolExecution: [
      'sequential',
      silent(
        [DP, 'corvid-agent-notes.md'],
        'judgement',
        "neither says how a reply's calls run; the loop takes them in turn, each through its guards (step 3)",
      ),
    ],
    onRejection: ['continue', dp('Error Cases', '| Permission denied | Denied text added to messages, loop continues |')],
  },
  choices: {
    iterations: '25, then the epilogue',
    repeat:
      '3 in a row across the session, normalized (sorted keys, trimmed whitespace), checked before the calls run → break; the third never runs',
    sameTool: '5 in a row → break',
    cycle: 'none',
    errorRepeat: 'none',
    contentLoop: 'none',
    onLoop: 'break',
    nudges: 'promisedAction, tooShort, wroteButDidntAct, askedInsteadOfActing; at most 2',
    hallucination: 'in a reply without calls, after tools ran: strip `[Tool Result]`, `<<tool_output>>`; nudge, at most 2',
    epilogue: 'one tools-disabled summary call',
    tokens: "corvid's own: length / 3 when over 8% of the characters are code, else length / 4 (non-ASCII counted as characters)",
    trim: '> 40 messages (keep 30) or > 70% of the window; keeps the prompt; dropped results summarized in one line each',
    toolCap: '30% of the window (4 chars/token), less under pressure, at least 1,000 chars',
    prune: 'none',
    overflow: 'none (the 70% trim keeps the context small)',
    compaction: 'only when the server rejects the context: summary, recent steps kept, no validation',
    preflight: 'nothing',
    providerOverflow: 'compact and retry once; a second rejection ends the session',
    retry:
      '3 retries at 1 s, 2 s, 4 s + 0–500 ms jitter; connection resets, 503, 429, OOM retried; model not found and bad requests fail at once; Retry-After not read',
    toolExecution: 'one after another',
    rejection: 'denial text to the model; the loop goes on',
    queue: 'all queued messages before the next step',
  },
};
