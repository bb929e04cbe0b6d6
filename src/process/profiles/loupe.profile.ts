// Loupe's default: the combination we judge best for local models on small windows. It starts from
// the corvid specs (written for Ollama) and departs where another system, or measurement, does
// better; each departure is its own named value, cited with its reason, and off in the profile of the
// system it departs from (citation-check.ts holds that).
import { COMPACTION_KEEP_TURNS } from '../../context/compaction';
import { PRUNE_KEEP_TURNS, PRUNE_MINIMUM_CAP, PRUNE_PROTECT_CAP } from '../../context/prune';
import { MAX_MESSAGES, KEEP_RECENT, TRIM_BUDGET_RATIO } from '../../context/trim';
import { TOOL_RESULT_CHARS_PER_TOKEN, TOOL_RESULT_MAX_CONTEXT_SHARE } from '../../context/tool-result-cap';
import { CYCLE_MAX_PERIOD, CYCLE_REPETITIONS } from '../policies/cycle-detector';
import { ERROR_REPEAT_THRESHOLD } from '../policies/error-repeat-detector';
import { MAX_MID_CHAIN_NUDGES } from '../policies/hallucination-detector';
import { MAX_TOOL_ITERATIONS } from '../policies/max-iterations';
import { MAX_NUDGES } from '../policies/nudge-policy';
import { MAX_RECOVERIES_PER_CALL } from '../policies/provider-recovery';
import { REPEAT_BREAK_THRESHOLD } from '../policies/repeat-detector';
import { SAME_TOOL_BREAK_THRESHOLD } from '../policies/same-tool-detector';
import { departs, passage, silent, states, unused } from './citations';
import type { LoopProfile } from './loop-profile';

const DP = 'direct-process.spec.md';
const CP = 'context-management-plan.md';
const dp = states(DP);
const cp = states(CP);
const pa = states('loop-control-prior-art.md');
const dpQ = passage(DP);
const paQ = passage('loop-control-prior-art.md');
const REPEAT = 'If the same tool call (normalized: sorted keys, trimmed whitespace) repeats 3 times consecutively, the loop breaks';
const INV_11 = 'Uses content-aware estimation: ~0.33 tokens/char for code-heavy content, ~0.25 tokens/char for prose';
const SILENT_TRUNCATION = paQ(
  '"Cross-cutting traps"',
  'Ollama reports prompt_eval_count after silently truncating to num_ctx, so usage-based overflow detection is blind (little-coder #128).',
);
const OVERFLOW_STEP = 'On a context-overflow error: summarizeConversation, keep the last 4 messages, retry once.';

export const loupeProfile: LoopProfile = {
  name: 'loupe',
  system: 'Loupe (default)',
  specs: [DP, 'ollama-provider.spec.md', 'mcp-agent-technical-spec.md', CP],
  settings: {
    maxToolIterations: [MAX_TOOL_ITERATIONS, dp('invariant 2', 'The agentic loop runs at most MAX_TOOL_ITERATIONS (25) turns', '25')],
    capRecovery: ['none', silent(DP, 'off', 'at the cap the loop ends and the summary epilogue runs (invariants 2, 9)')],
    graceTurnMs: [0, unused({ capRecovery: 'none' })],
    repeatThreshold: [REPEAT_BREAK_THRESHOLD, dp('invariant 3', REPEAT, '3')],
    repeatScope: [
      'session',
      dp('invariant 3', 'repeats 3 times consecutively', undefined, {
        note: "across replies, unlike opencode's",
        also: [paQ('§1 Doom loop, known gaps', '#50073 calls the detector "blind across turns" (1.18.31).')],
      }),
    ],
    repeatCheck: [
      'after_run',
      departs(
        'corvid',
        'after_run',
        "a step's calls run before the check, so their outcomes feed the repeated-error and cycle detectors; the spec does not say when the check runs",
        dpQ('invariant 3', REPEAT),
      ),
    ],
    callKey: ['normalized', dp('invariant 3', 'normalized: sorted keys, trimmed whitespace')],
    sameToolThreshold: [
      SAME_TOOL_BREAK_THRESHOLD,
      dp('invariant 4', 'If the same tool name is called 5 times consecutively (even with different args), the loop breaks', '5'),
    ],
    cycleRepetitions: [
      CYCLE_REPETITIONS,
      departs(
        'corvid',
        'cycle detector, 3 repetitions',
        "fills the spec's gap; gemini-cli's 5 repetitions cannot fire within 25 iterations for long cycles, OpenHands breaks A/B at 3",
        paQ('§1 Doom loop, known gaps', 'It misses A,B,A,B cycles (#47759; PRs #47797 and #47845).'),
        paQ('§4 The five patterns', 'Actions satisfy a0=a2=a4 and a1=a3=a5, and observations likewise (an A/B ping-pong ×3).'),
      ),
    ],
    cycleMaxPeriod: [
      CYCLE_MAX_PERIOD,
      pa('§2 Tool calls', 'It flags a loop when, for a cycle length k of 1–5, the last k keys repeat 5 times in a row.', '5', {
        note: "gemini-cli's longest cycle",
      }),
    ],
    errorRepeatThreshold: [
      ERROR_REPEAT_THRESHOLD,
      departs(
        'corvid',
        'repeated-error detector, 3',
        "OpenHands' repeating_action_error: the same failing call three times will not start succeeding",
        paQ('§4 The five patterns', '3 identical actions followed by 3 ErrorObservations.'),
      ),
    ],
    contentLoopThreshold: [
      0,
      silent(
        DP,
        'off',
        "a reply is bounded by num_predict, and gemini-cli's detector has false positives on legitimate lists (#5873, #8232)",
      ),
    ],
    doomLoop: ['break', dp('invariant 3', 'the loop breaks with needsSummary = true')],
    loopNudges: [0, unused({ doomLoop: 'break' })],
    nudgePolicy: [
      'corvid',
      dp('invariant 7', 'Standard nudges (promisedAction, tooShort, wroteButDidntAct, askedInsteadOfActing) limited to 2'),
    ],
    maxNudges: [
      MAX_NUDGES,
      dp('invariant 7', 'Standard nudges (promisedAction, tooShort, wroteButDidntAct, askedInsteadOfActing) limited to 2', '2'),
    ],
    hallucinationGuard: [
      'all_replies',
      departs(
        'corvid',
        'all_replies',
        'the text-mode habit of writing a call and then its "result" in the same reply: text after a call is checked too',
        dpQ(
          'invariant 8',
          'If model generates [Tool Result], <<tool_output>>, or <</tool_output>> in its output after tools have been called, the content is stripped',
        ),
      ),
    ],
    maxMidChainNudges: [MAX_MID_CHAIN_NUDGES, dp('invariant 7', 'Mid-chain nudges (hallucinated tool results) also limited to 2', '2')],
    epilogue: [
      'summary',
      dp(
        'invariant 9',
        'When the loop breaks due to repeat detection, same-tool detection, or max iterations, a final tools-disabled inference call produces a summary',
        undefined,
        { note: 'also after cycle and error-repeat breaks' },
      ),
    ],
    queueInjection: [
      'all',
      departs(
        'dexto',
        'all',
        'all queued messages go in before the next step, so none waits behind a long chain',
        passage(CP)('§4 MessageQueueService', 'const msg = this.queue.shift();'),
      ),
    ],
    tokenEstimator: [
      'content_aware',
      departs(
        'corvid',
        'content_aware',
        "invariant 11's content-aware estimate, blended across code shares 0.05–0.12 and non-ASCII at 1 token/char: 0.25 under-counts it, and under-counting is what lets Ollama truncate silently",
        dpQ('invariant 11', INV_11),
        SILENT_TRUNCATION,
      ),
    ],
    trimMaxMessages: [MAX_MESSAGES, dp('invariant 5', 'trimMessages() triggers when message count exceeds 40', '40')],
    trimKeepRecent: [KEEP_RECENT, dp('Configuration', '| KEEP_RECENT | 30 | Messages to keep after count-based trim |', '30')],
    trimBudgetRatio: [TRIM_BUDGET_RATIO, dp('invariant 5', 'or estimated tokens exceed 70% of context window', '70%')],
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
      TOOL_RESULT_CHARS_PER_TOKEN,
      departs(
        'corvid',
        'code chars per token (3)',
        'tool results are mostly code, which invariant 11 puts at ~0.33 tokens/char',
        dpQ('invariant 11', INV_11),
      ),
    ],
    prune: [
      'scaled',
      departs(
        'dexto',
        'scaled',
        "the plan's (opencode's) 40k/20k never fire on an 8k window: protect 25% and prune at least 10% of num_ctx, capped at 40k/20k",
        passage(CP)("§3 Mark-Don't-Delete Pruning", 'const PRUNE_PROTECT = 40_000; // Keep last 40K tokens of tool outputs'),
      ),
    ],
    pruneProtectTokens: [
      40_000,
      cp(
        "§3 Mark-Don't-Delete Pruning",
        'const PRUNE_PROTECT = 40_000; // Keep last 40K tokens of tool outputs',
        { text: '40_000', constant: { name: 'PRUNE_PROTECT_CAP', value: PRUNE_PROTECT_CAP } },
        { note: "under 'scaled' the cap of the budget; the setting itself is read only by 'fixed'" },
      ),
    ],
    pruneMinimumTokens: [
      20_000,
      cp(
        "§3 Mark-Don't-Delete Pruning",
        'const PRUNE_MINIMUM = 20_000; // Only prune if we can save 20K+',
        { text: '20_000', constant: { name: 'PRUNE_MINIMUM_CAP', value: PRUNE_MINIMUM_CAP } },
        { note: "under 'scaled' the cap of the minimum; the setting itself is read only by 'fixed'" },
      ),
    ],
    pruneKeepTurns: [
      PRUNE_KEEP_TURNS,
      pa('§1 Prune', 'It goes backwards and skips the last 2 user turns.', '2', { note: "opencode's rule; a turn here is a step" }),
    ],
    pruneProtectedTools: [[], silent(CP, 'off', "the plan exempts no tool (opencode's `skill` is not a Loupe tool)")],
    pruneAfter: [
      'each_request',
      departs(
        'dexto',
        'each_request',
        'as dexto shipped it: before every request, so a step that ran no tools is pruned too (the plan prunes after a step that ran tools)',
        paQ('§3 Pruning', "Pruning (l.2258): OpenCode's 40k/20k constants, run before every request."),
      ),
    ],
    pruneCompletedOnly: [
      false,
      departs(
        'dexto',
        'failed output pruned too',
        "opencode's rule as the survey gives it counts every tool output by age; no other reason is recorded",
        paQ('§1 Prune', 'Tool outputs older than the newest 40k tokens are marked state.time.compacted'),
      ),
    ],
    overflowTrigger: [
      'reserved_output',
      cp('§2 Reactive Compression', 'Triggers compression AFTER overflow is detected (using actual tokens from last step)', undefined, {
        also: [passage(CP)('§2 isOverflow', 'const usable = contextLimit - outputBuffer;')],
      }),
    ],
    overflowRatio: [0, unused({ overflowTrigger: 'reserved_output' })],
    outputReserve: [
      'window_quarter',
      departs(
        'dexto',
        'window_quarter',
        "min(2,048, window / 4): corvid's local num_predict, at most a quarter of a small window (the plan reserves min(maxOutput, OUTPUT_TOKEN_MAX))",
        passage('corvid-agent-notes.md')('§2.4 Request', 'num_predict is 2048 locally and 4096 for cloud.'),
      ),
    ],
    overflowAction: ['compact', cp('§2 Reactive Compression', 'LLM-based summarization of old messages')],
    compactionKeep: ['turns', pa('§3 Compaction (dexto)', 'Keeps the last 2 turns (preserveLastNTurns)')],
    compactionKeepTurns: [
      COMPACTION_KEEP_TURNS,
      pa('§3 Compaction (dexto)', 'Keeps the last 2 turns (preserveLastNTurns)', '2', { note: 'a turn here is a step' }),
    ],
    compactionKeepShare: [0, unused({ compactionKeep: 'turns' })],
    compactionValidation: [
      'reject_empty_or_inflated',
      departs(
        'dexto',
        'reject_empty_or_inflated',
        "gemini-cli's validation, which dexto's plan asked about and did not ship: an empty or inflating summary is rejected, and later overflows only trim",
        passage(CP)('Open Questions', 'Compression validation: Should we validate compression reduced tokens? (Gemini-CLI does this)'),
        paQ('§3 Compaction (dexto)', "The plan's validate(before, after) inflation check was not shipped"),
      ),
    ],
    compactionBaseline: [
      'replaced_estimate',
      departs(
        'gemini-cli',
        'replaced_estimate',
        "the summary is compared with the estimate of the history it replaces, one estimator on both sides: the last prompt's API count also holds the system prompt and tool schemas, which a summary never replaces",
        passage(CP)('Gemini-CLI Approach', 'Token counting: Heuristic (ASCII ~0.25, non-ASCII ~1.3 tokens/char) + API fallback'),
      ),
    ],
    preflight: [
      'record',
      departs('corvid', 'record', 'an estimate over the window is recorded before sending: Ollama truncates silently', SILENT_TRUNCATION),
    ],
    providerOverflow: ['compact', states('corvid-agent-notes.md')('§2.2 "Each iteration" step 2', OVERFLOW_STEP)],
    providerOverflowRetries: [
      MAX_RECOVERIES_PER_CALL,
      departs(
        'corvid',
        'two recoveries per call',
        "a summary can still leave the context too long (or fail and fall back to a trim); a second recovery before the rejection stands, within the loop's bound on recoveries per call",
        passage('corvid-agent-notes.md')('§2.2 "Each iteration" step 2', OVERFLOW_STEP),
      ),
    ],
    retrySchedule: [
      'loupe',
      departs(
        'corvid',
        'loupe',
        "corvid's 1/2/4 s + jitter, plus a server's longer Retry-After honoured up to 60 s (opencode reads it too), and an out-of-memory load retried once: waiting does not make a model fit",
        passage('ollama-provider.spec.md')(
          'invariant 12',
          'Retryable errors (connection reset, 503, 429, OOM) are retried up to 3 times with exponential backoff (1s, 2s, 4s) + jitter',
        ),
        passage('stream-processor-deep-dive.md')('Error Handling and Retries', '// If error specifies retry-after, use that'),
        passage('ollama-live-behaviour.md')('memory errors', 'The scheduler already retries a failed load with a smaller context itself.'),
      ),
    ],
    callIds: [
      'provider',
      silent(DP, 'corvid', "the spec does not name calls; the provider's (Ollama's, or the text extractor's) ids are kept"),
    ],
    toolExecution: [
      'parallel',
      states('mcp-agent-technical-spec.md')('§5 Workflow step 4', 'Uses Promise.allSettled for concurrent execution', undefined, {
        note: 'approvals one at a time first (step 2), results in call order',
      }),
    ],
    onRejection: ['continue', dp('Error Cases', '| Permission denied | Denied text added to messages, loop continues |')],
  },
  choices: {
    iterations: '25, then the epilogue',
    repeat: '3 in a row across the session, normalized → break',
    sameTool: '5 in a row → break',
    cycle: 'a sequence of 2–5 calls repeated 3 times → break',
    errorRepeat: 'the same call failing with the same error 3 times → break',
    contentLoop: 'none',
    onLoop: 'break',
    nudges: "corvid's four reasons, at most 2, only before any tool ran",
    hallucination: 'strip and nudge, at most 2; also text written after a call in the same reply',
    epilogue: 'one tools-disabled summary call, also after cycle and error-repeat breaks',
    tokens: 'content-aware, blended across code shares 0.05–0.12; non-ASCII 1 token/char',
    trim: '> 40 messages (keep 30) or > 70% of the window, with one-line summaries',
    toolCap: '30% of the window (3 chars/token), less under pressure, at least 1,000 chars',
    prune:
      "mark-don't-delete with opencode's rule, budgets scaled to the window (protect 25%, minimum 10%, capped at 40k / 20k), last 2 steps kept",
    overflow: 'actual prompt tokens ≥ window − output reserve (min(2,048, window / 4)) → compact',
    compaction: 'LLM summary, tools off, last 2 steps kept; empty or inflated summaries rejected, then only trimming',
    preflight: 'estimate over the window, or a reported count well below a near-full estimate, is recorded (Ollama truncates silently)',
    providerOverflow: 'compact (or trim) and retry, at most twice per call',
    retry: "corvid's 3 retries at 1 s, 2 s, 4 s + jitter, and a longer Retry-After honoured up to 60 s; an out-of-memory load retried once",
    toolExecution: 'approvals one at a time, then approved calls at once, results in call order',
    rejection: 'denial text to the model; the loop goes on',
    queue: 'all queued messages before the next step',
  },
};
