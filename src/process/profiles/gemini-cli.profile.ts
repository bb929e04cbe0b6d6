// gemini-cli's agent loop, as context-management-plan.md ("Gemini-CLI Approach") and
// ../shared/reference/loop-control-prior-art.md §2 describe it. Where the two disagree the profile
// follows the plan, and the citation names the disagreement.
import { GEMINI_NON_ASCII_TOKENS_PER_CHAR } from '../../context/token-estimation';
import { RETRY_SCHEDULES } from '../../provider/ollama/retry-schedules';
import { passage, silent, states, unused } from './citations';
import type { LoopProfile } from './loop-profile';

const CP = 'context-management-plan.md';
const PA = 'loop-control-prior-art.md';
const cp = states(CP);
const pa = states(PA);
const GRACE = 'Cancellation: AbortController with 60s grace period for recovery turns';
const TOOL_LOOP = 'It flags a loop when, for a cycle length k of 1–5, the last k keys repeat 5 times in a row.';
const COMPRESSION = 'Compression: LLM summary at 50% threshold, preserve last 30%';
const MASKING = 'protects the newest 50k tool tokens and the latest turn, and masks only when at least 30k tokens are prunable.';
const NO_TRIM = 'compression instead of trimming';
const noTrim = unused({ trimMaxMessages: 0, trimBudgetRatio: 0, trimBudgetTokens: 0 });
const noCap = unused({ toolResultCap: 'off' });

export const geminiCliProfile: LoopProfile = {
  name: 'gemini-cli',
  system: 'gemini-cli',
  specs: [CP, PA],
  settings: {
    maxToolIterations: [100, pa('§2 Turn limits', 'MAX_TURNS=100 per sendMessageStream chain.', '100')],
    capRecovery: ['grace_turn', cp('Gemini-CLI Approach', GRACE)],
    graceTurnMs: [60_000, cp('Gemini-CLI Approach', GRACE, '60s')],
    repeatThreshold: [5, pa('§2 Loop detection constants', 'TOOL_CALL_LOOP_THRESHOLD=5', '5')],
    repeatScope: ['session', pa('§2 Tool calls', 'Each call is keyed as sha256(name:JSON(args)), keeping the last 25 keys.')],
    repeatCheck: ['after_run', silent([CP, PA], 'loupe', 'neither says whether the check comes before the call runs; as Loupe')],
    callKey: ['exact', pa('§2 Tool calls', 'Each call is keyed as sha256(name:JSON(args))')],
    sameToolThreshold: [0, pa('§6 Feature matrix', '| Same-tool detection (any args) | no (#32187 requests it) | none | no |')],
    cycleRepetitions: [5, pa('§2 Tool calls', TOOL_LOOP, '5')],
    cycleMaxPeriod: [5, pa('§2 Tool calls', TOOL_LOOP, '5')],
    errorRepeatThreshold: [0, silent(PA, 'off', 'no repeated-error detector')],
    contentLoopThreshold: [10, pa('§2 Loop detection constants', 'CONTENT_LOOP_THRESHOLD=10', '10')],
    doomLoop: ['nudge', pa('§2 On detection — two strikes', 'Strike 1: clearDetection() keeps the count.')],
    loopNudges: [
      1,
      pa('§2 On detection — two strikes', 'Strike 2: yields LoopDetected.', {
        text: '2',
        offset: -1,
        why: 'the second strike ends the session, so one warning',
      }),
    ],
    nudgePolicy: ['off', pa('§6 Feature matrix', '| Nudges | none | none | strike 1 injects "Potential loop detected…" |')],
    maxNudges: [0, unused({ nudgePolicy: 'off' })],
    hallucinationGuard: [
      'off',
      pa(
        '§6 Feature matrix',
        '| Hallucinated tool-output detection | none (bad calls repaired to invalid tool) | none | none (MALFORMED_FUNCTION_CALL retried) |',
      ),
    ],
    maxMidChainNudges: [0, unused({ hallucinationGuard: 'off' })],
    epilogue: ['none', pa('§6 Feature matrix', '| Summary epilogue | max-steps.txt text-only wrap-up | none | none |')],
    queueInjection: [
      'all',
      pa('§2 Cancellation and queued messages', 'Messages typed during streaming go to useMessageQueue, are joined with'),
    ],
    tokenEstimator: [
      'gemini',
      cp(
        'Gemini-CLI Approach',
        'Token counting: Heuristic (ASCII ~0.25, non-ASCII ~1.3 tokens/char) + API fallback',
        { text: '1.3', constant: { name: 'GEMINI_NON_ASCII_TOKENS_PER_CHAR', value: GEMINI_NON_ASCII_TOKENS_PER_CHAR } },
        {
          disagrees: {
            ...passage(PA)('§2 Token estimate', 'Non-ASCII costs 1.5.'),
            figure: '1.5',
            why: "the profile follows its spec's 1.3; 1.5 is the survey's reading of a newer build",
          },
        },
      ),
    ],
    trimMaxMessages: [0, silent([CP, PA], 'off', NO_TRIM)],
    trimKeepRecent: [0, unused({ trimMaxMessages: 0 })],
    trimBudgetRatio: [0, silent([CP, PA], 'off', NO_TRIM)],
    trimBudgetTokens: [0, silent([CP, PA], 'off', NO_TRIM)],
    trimSummaries: [false, noTrim],
    toolResultCap: ['off', silent(PA, 'off', 'the 50k tool-output budget applies inside compression only')],
    toolResultMaxChars: [0, noCap],
    toolResultCharsPerToken: [3, noCap],
    prune: ['fixed', pa('§2 Tool-output masking', MASKING)],
    pruneProtectTokens: [50_000, pa('§2 Tool-output masking', MASKING, '50k')],
    pruneMinimumTokens: [30_000, pa('§2 Tool-output masking', MASKING, '30k')],
    pruneKeepTurns: [1, pa('§2 Tool-output masking', MASKING, undefined, { note: 'the latest turn' })],
    pruneProtectedTools: [[], silent(PA, 'off', 'no tool is exempt')],
    pruneAfter: ['each_request', silent(PA, 'loupe', 'the survey does not say when masking runs; as Loupe')],
    pruneCompletedOnly: [false, silent(PA, 'off', 'no status is named')],
    overflowTrigger: [
      'context_ratio',
      pa('§2 Compression', 'Trigger: lastPromptTokenCount ≥ 0.5·tokenLimit (DEFAULT_COMPRESSION_TOKEN_THRESHOLD).'),
    ],
    overflowRatio: [0.5, cp('Gemini-CLI Approach', COMPRESSION, '50%')],
    outputReserve: ['window_quarter', unused({ overflowTrigger: 'context_ratio' })],
    overflowAction: ['compact', cp('Gemini-CLI Approach', COMPRESSION)],
    compactionKeep: ['share', pa('§2 Compression', 'Keep: COMPRESSION_PRESERVE_THRESHOLD=0.3.')],
    compactionKeepTurns: [0, unused({ compactionKeep: 'share' })],
    compactionKeepShare: [
      0.3,
      cp('Gemini-CLI Approach', COMPRESSION, '30%', { also: [passage(PA)('§2 Compression', 'Keep: COMPRESSION_PRESERVE_THRESHOLD=0.3.')] }),
    ],
    compactionValidation: [
      'reject_empty_or_inflated',
      pa(
        '§2 Validation',
        'A new count above the old one gives COMPRESSION_FAILED_INFLATED_TOKEN_COUNT and latches hasFailedCompressionAttempt.',
        undefined,
        {
          also: [passage(PA)('§2 Validation', 'An empty summary gives COMPRESSION_FAILED_EMPTY_SUMMARY.')],
          note: 'the verification call is left out',
        },
      ),
    ],
    // compress() compares the new count with lastPromptTokenCount, the estimate of the history without one
    compactionBaseline: [
      'last_prompt',
      cp('Gemini-CLI Approach', 'Token counting: Heuristic (ASCII ~0.25, non-ASCII ~1.3 tokens/char) + API fallback'),
    ],
    preflight: [
      'refuse',
      pa(
        '§2 Overflow',
        'if the request estimate exceeds tokenLimit − lastPromptTokenCount, it yields ContextWindowWillOverflow and does not send.',
      ),
    ],
    providerOverflow: ['fail', silent([CP, PA], 'off', 'no handling of a rejected context is described (retries never 400)')],
    providerOverflowRetries: [2, unused({ providerOverflow: 'fail' })],
    retrySchedule: [
      'gemini-cli',
      pa('§2 Retry', '10 attempts, 5000 ms rising to 30000 ms, jitter ±30%.', {
        text: '10',
        offset: -1,
        why: '10 attempts are 9 retries',
        constant: { name: "RETRY_SCHEDULES['gemini-cli'].maxRetries", value: RETRY_SCHEDULES['gemini-cli'].maxRetries },
      }),
    ],
    callIds: ['provider', silent([CP, PA], 'loupe', 'the ids the provider gives are kept; as Loupe')],
    toolExecution: ['parallel', cp('Gemini-CLI Approach', 'Tool execution: Parallel via Promise.all()')],
    onRejection: ['continue', silent([CP, PA], 'corvid', 'neither says what a rejected call does; as the direct-process spec')],
  },
  choices: {
    iterations: '100; at the cap one more turn, limited to 60 s, to give a final answer',
    repeat: '5 identical calls in a row (name + exact JSON arguments)',
    sameTool: 'none',
    cycle: 'a sequence of 2–5 calls repeated 5 times',
    errorRepeat: 'none',
    contentLoop: 'a 50-char chunk ≥ 10 times, on average ≤ 250 chars apart, outside code blocks; reset by a tool call',
    onLoop: 'two strikes: the first warns the model ("Potential loop detected…") and restarts detection, the second ends the session',
    nudges: 'none',
    hallucination: 'none: the text stays',
    epilogue: 'none',
    tokens: 'ASCII 0.25 tokens/char, other characters 1.3; over 100k chars, length / 4',
    trim: 'none (compression instead)',
    toolCap: 'none',
    prune: 'tool output masked past the newest 50k tokens, latest turn protected, only if ≥ 30k prunable',
    overflow: 'last prompt ≥ 50% of the window → compress',
    compaction:
      'LLM summary of the older 70%, newest 30% kept (split at a step boundary); empty or inflated → failed, later overflows only truncate',
    preflight: 'the new messages estimated over window − last prompt → not sent; the session ends (context_overflow)',
    providerOverflow: 'fails the session',
    retry: '9 retries (10 attempts), 5 s doubling to 30 s, ±30% jitter; network errors, 429, 499 and 5xx; never 400; Retry-After not read',
    toolExecution: 'all at once',
    rejection: 'denial text to the model; the loop goes on',
    queue: 'all queued messages before the next step',
  },
};
