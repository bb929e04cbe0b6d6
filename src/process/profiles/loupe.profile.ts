// Loupe's default: the combination we judge best for local models on small windows. It starts from
// the corvid specs (written for Ollama) and departs where another system, or measurement, does
// better; each departure is named in its row.
import { CYCLE_MAX_PERIOD, CYCLE_REPETITIONS } from '../policies/cycle-detector';
import { ERROR_REPEAT_THRESHOLD } from '../policies/error-repeat-detector';
import { MAX_MID_CHAIN_NUDGES } from '../policies/hallucination-detector';
import { MAX_TOOL_ITERATIONS } from '../policies/max-iterations';
import { MAX_NUDGES } from '../policies/nudge-policy';
import { REPEAT_BREAK_THRESHOLD } from '../policies/repeat-detector';
import { SAME_TOOL_BREAK_THRESHOLD } from '../policies/same-tool-detector';
import type { LoopProfile } from './loop-profile';

const DP = 'direct-process.spec.md';

export const loupeProfile: LoopProfile = {
  name: 'loupe',
  system: 'Loupe (default)',
  specs: [DP, 'ollama-provider.spec.md', 'mcp-agent-technical-spec.md', 'context-management-plan.md'],
  policies: {
    maxToolIterations: MAX_TOOL_ITERATIONS,
    repeatThreshold: REPEAT_BREAK_THRESHOLD,
    repeatScope: 'session',
    callKey: 'normalized',
    sameToolThreshold: SAME_TOOL_BREAK_THRESHOLD,
    cycleRepetitions: CYCLE_REPETITIONS,
    cycleMaxPeriod: CYCLE_MAX_PERIOD,
    errorRepeatThreshold: ERROR_REPEAT_THRESHOLD,
    contentLoopThreshold: 0,
    doomLoop: 'break',
    loopNudges: 0,
    nudgePolicy: 'corvid',
    maxNudges: MAX_NUDGES,
    hallucinationGuard: 'all_replies',
    maxMidChainNudges: MAX_MID_CHAIN_NUDGES,
    epilogue: 'summary',
    tokenEstimator: 'content_aware',
    trimMaxMessages: 40,
    trimKeepRecent: 30,
    trimBudgetRatio: 0.7,
    trimBudgetTokens: 0,
    trimSummaries: true,
    toolResultCap: 'context_share',
    toolResultMaxChars: 0,
    prune: 'scaled',
    pruneProtectTokens: 40_000,
    pruneMinimumTokens: 20_000,
    pruneKeepTurns: 2,
    pruneProtectedTools: [],
    overflowTrigger: 'reserved_output',
    overflowRatio: 0,
    overflowAction: 'compact',
    compactionKeep: 'turns',
    compactionKeepTurns: 2,
    compactionKeepShare: 0,
    compactionValidation: 'reject_empty_or_inflated',
    preflight: 'record',
    providerOverflow: 'compact',
    retrySchedule: 'loupe',
    toolExecution: 'parallel',
    onRejection: 'continue',
  },
  choices: {
    iterations: { choice: '25, then the epilogue', source: `${DP} invariant 2` },
    repeat: {
      choice: '3 in a row across the session, normalized → break',
      source: `${DP} invariant 3; across replies, unlike opencode's (#50073)`,
    },
    sameTool: { choice: '5 in a row → break', source: `${DP} invariant 4` },
    cycle: {
      choice: 'a sequence of 2–5 calls repeated 3 times → break',
      source:
        "departure: fills the spec gap (opencode #47759); gemini-cli's 5 repetitions cannot fire within 25 iterations for long cycles, OpenHands breaks A/B at 3",
    },
    errorRepeat: {
      choice: 'the same call failing with the same error 3 times → break',
      source: "departure: OpenHands' repeating_action_error (3)",
    },
    contentLoop: {
      choice: 'none',
      source: "a reply is bounded by num_predict, and gemini-cli's detector has false positives on legitimate lists (#5873, #8232)",
    },
    onLoop: { choice: 'break', source: `${DP} invariants 3, 4` },
    nudges: {
      choice: "corvid's four reasons, at most 2, only before any tool ran",
      source: `${DP} invariant 7; corvid-agent notes §2.2 (step 4)`,
    },
    hallucination: {
      choice: 'strip and nudge, at most 2; also text written after a call in the same reply',
      source: `${DP} invariants 7, 8; departure: the text-mode habit of writing a call and then its "result"`,
    },
    epilogue: { choice: 'one tools-disabled summary call, also after cycle and error-repeat breaks', source: `${DP} invariant 9` },
    tokens: {
      choice: 'content-aware, blended across code shares 0.05–0.12; non-ASCII 1 token/char',
      source: `${DP} invariant 11; departure: non-ASCII at 0.25 under-counts, and under-counting is what lets Ollama truncate silently`,
    },
    trim: { choice: '> 40 messages (keep 30) or > 70% of the window, with one-line summaries', source: `${DP} invariants 5, 12` },
    toolCap: {
      choice: '30% of the window (3 chars/token), less under pressure, at least 1,000 chars',
      source: `${DP} invariant 6; departure: 3 chars/token, as results are mostly code`,
    },
    prune: {
      choice:
        "mark-don't-delete with opencode's rule, budgets scaled to the window (protect 25%, minimum 10%, capped at 40k / 20k), last 2 steps kept",
      source: 'context-management-plan.md §3; departure: 40k/20k never fire on an 8k window',
    },
    overflow: {
      choice: 'actual prompt tokens ≥ window − output reserve (min(2,048, window / 4)) → compact',
      source: 'context-management-plan.md §2 (reactive, on actual tokens)',
    },
    compaction: {
      choice: 'LLM summary, tools off, last 2 steps kept; empty or inflated summaries rejected, then only trimming',
      source: "context-management-plan.md §2; departure: gemini-cli's validation, which dexto planned and did not ship",
    },
    preflight: {
      choice: 'estimate over the window, or a reported count well below a near-full estimate, is recorded (Ollama truncates silently)',
      source: 'departure: loop-control-prior-art.md "cross-cutting traps" (little-coder #128)',
    },
    providerOverflow: { choice: 'compact (or trim) and retry', source: 'corvid-agent notes §2.2' },
    retry: {
      choice:
        "corvid's 3 retries at 1 s, 2 s, 4 s + jitter, and a longer Retry-After honoured up to 60 s; an out-of-memory load retried once",
      source:
        'ollama-provider.spec.md invariant 12; departures: Retry-After (opencode reads it too), and one OOM retry (waiting does not make a model fit: ollama-live-behaviour.md)',
    },
    toolExecution: {
      choice: 'approvals one at a time, then approved calls at once, results in call order',
      source: 'mcp-agent-technical-spec.md §5',
    },
    rejection: { choice: 'denial text to the model; the loop goes on', source: `${DP} error case "Permission denied"` },
  },
};
