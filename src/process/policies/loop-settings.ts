// Every setting the loop runs under. A loop profile (../profiles) supplies the policy choices of one
// agent system; the environment, a scenario's `config:`, a `--set` axis or an API caller override
// single settings on top; the session records what it resolved to, profile included.
import type { RetryScheduleName } from '../../provider/ollama/retry-schedules';
import type { ExtractionPolicy } from '../../provider/ollama/tool-calls/types';
import type { TokenEstimatorName } from '../../context/token-estimation';
import type { CallIdScheme } from './call-ids';
import type { CompactionBaseline } from './compaction-baseline';

export const LOOP_PROFILE_NAMES = ['loupe', 'corvid', 'opencode', 'dexto', 'mcp-agent', 'gemini-cli'] as const;
export type LoopProfileName = (typeof LOOP_PROFILE_NAMES)[number];
export const DEFAULT_PROFILE: LoopProfileName = 'loupe';

/** Settings every profile shares unless overridden: the run's environment, not a loop design. */
export interface SessionBudgets {
  /** the context window budgets are computed from (OLLAMA_NUM_CTX) */
  numCtx: number;
  /** per tool call */
  toolTimeoutMs: number;
  /** an `ask` that gets no decision in this long counts as rejected */
  approvalTimeoutMs: number;
  /** the most tokens one reply may have (OLLAMA_NUM_PREDICT): the model's maxOutput in dexto's output reserve */
  numPredict: number;
}

/** The choices a loop profile makes; each is read by one pure policy. 0 turns a threshold off. */
export interface LoopPolicies {
  maxToolIterations: number;

  // loop detection
  /** identical calls in a row that count as a loop (0: off) */
  repeatThreshold: number;
  /** where identical calls are looked for: the whole session, or within one model reply (opencode) */
  repeatScope: 'session' | 'reply';
  /** how calls compare: normalized (sorted keys, trimmed strings) or exact JSON */
  callKey: 'normalized' | 'exact';
  /** the same tool name in a row, any arguments (0: off) */
  sameToolThreshold: number;
  /** repetitions of a 2..cycleMaxPeriod-call sequence (0: off) */
  cycleRepetitions: number;
  cycleMaxPeriod: number;
  /** the same call failing with the same error in a row (0: off) */
  errorRepeatThreshold: number;
  /** a 50-char chunk of the model's text repeated this often, close together (0: off; gemini-cli: 10) */
  contentLoopThreshold: number;
  /** where identical calls are caught: after they ran, or before the last of them runs (corvid: the third never runs) */
  repeatCheck: 'after_run' | 'before_run';
  /** what a detected repeat, cycle or content loop does: break, ask a person (opencode), or warn the model first (gemini-cli) */
  doomLoop: 'break' | 'ask' | 'nudge';
  /** with doomLoop 'nudge': warnings before the next detection breaks */
  loopNudges: number;

  // replies
  /** corvid's nudges for weak replies before any tool ran, or none */
  nudgePolicy: 'corvid' | 'off';
  maxNudges: number;
  /** fabricated tool output after tools ran: stripped and nudged in text-only replies (corvid), also after a reply's own calls (Loupe), or let through */
  hallucinationGuard: 'replies_without_calls' | 'all_replies' | 'off';
  maxMidChainNudges: number;
  /** after a loop-control break: one tools-disabled summary call, or nothing */
  epilogue: 'summary' | 'none';
  /** at the iteration cap: end, or one last turn under a time limit to give a final answer (gemini-cli's grace recovery turn) */
  capRecovery: 'none' | 'grace_turn';
  /** the grace turn's time limit, ms (gemini-cli: 60 s) */
  graceTurnMs: number;
  /** messages sent mid-loop: all queued ones before the next step, or one per step (dexto's dequeue) */
  queueInjection: 'all' | 'one';

  // context
  tokenEstimator: TokenEstimatorName;
  /** trim when the context exceeds this many messages (0: off) */
  trimMaxMessages: number;
  trimKeepRecent: number;
  /** trim when the estimate exceeds this share of num_ctx (0: off) */
  trimBudgetRatio: number;
  /** and never keep more than this many tokens of history (0: no absolute cap; mcp-agent: 30k) */
  trimBudgetTokens: number;
  /** dropped tool results leave one-line summaries in a trim note (corvid invariant 12), or vanish */
  trimSummaries: boolean;
  /** one tool result's cap: a share of the window (corvid invariant 6), a fixed size, or none */
  toolResultCap: 'context_share' | 'fixed_chars' | 'off';
  toolResultMaxChars: number;
  /** tokens → chars for the 'context_share' cap: 3 (Loupe: results are mostly code) or 4 (corvid's calculateMaxToolResultChars) */
  toolResultCharsPerToken: number;
  /** mark old tool output as cleared: scaled to num_ctx (Loupe), opencode's fixed budgets, or not at all */
  prune: 'scaled' | 'fixed' | 'off';
  pruneProtectTokens: number;
  pruneMinimumTokens: number;
  pruneKeepTurns: number;
  pruneProtectedTools: string[];
  /** when pruning runs: before every request, or after a step that ran tools (dexto's plan, step 6) */
  pruneAfter: 'each_request' | 'tool_step';
  /** failed tool output is left alone, neither counted nor cleared (dexto's plan: completed outputs only) */
  pruneCompletedOnly: boolean;
  /** when the last prompt's actual token count calls for shrinking the context */
  overflowTrigger: 'reserved_output' | 'context_ratio' | 'off';
  overflowRatio: number;
  /** the reserve for the reply under 'reserved_output': min(2,048, window / 4) (Loupe), or min(num_predict, OUTPUT_TOKEN_MAX) (dexto's plan) */
  outputReserve: 'window_quarter' | 'max_output';
  /** what shrinks it: an LLM summary (trim if that fails), a trim, or clearing the history */
  overflowAction: 'compact' | 'trim' | 'clear_history';
  /** what a summary keeps verbatim: the last N steps, the last N steps if they fit clamp(25% of the usable window, 2k, 8k) (opencode), or the newest share of the history */
  compactionKeep: 'turns' | 'turns_clamped' | 'share';
  compactionKeepTurns: number;
  compactionKeepShare: number;
  /** an empty or inflating summary is rejected (and later overflows only trim), or accepted as is */
  compactionValidation: 'reject_empty_or_inflated' | 'none';
  /**
   * what a summary's count is checked against for inflation: the estimate of what it replaces, or the
   * last prompt's API-reported token count, the context's estimate without one (gemini-cli's compress())
   */
  compactionBaseline: CompactionBaseline;
  /** before sending: record an estimated overflow (Loupe's silent-truncation guard), refuse to send (gemini-cli), clear the history and send (mcp-agent), or nothing */
  preflight: 'record' | 'refuse' | 'clear_history' | 'off';
  /** when the server rejects the context as too long */
  providerOverflow: 'compact' | 'clear_history' | 'fail';
  /** recoveries (compact or clear, and retry) per model call before a rejection stands (corvid: retry once) */
  providerOverflowRetries: number;

  // provider and tools
  retrySchedule: RetryScheduleName;
  /** how a reply's calls are named: as the provider named them, or call_${timestamp}_${index} (the MCP agent) */
  callIds: CallIdScheme;
  /** approved calls of one reply: all at once, settled one by one (mcp-agent §5), or one after another */
  toolExecution: 'parallel' | 'sequential';
  /** a rejected call: tell the model and go on, or stop the session */
  onRejection: 'continue' | 'stop';
}

/**
 * Sampling options sent with every model request of the session; unset ones are not sent (the
 * model's and Ollama's defaults apply). Not a loop design: no profile sets them.
 */
export interface SamplingSettings {
  temperature?: number;
  topP?: number;
  topK?: number;
  minP?: number;
  repeatPenalty?: number;
}

/** How text-mode tool calls are read. Not a loop design: no profile sets it. */
export interface ExtractionSettings {
  /** strict: only what each format's reference parser accepts; lenient: repair and record; unset: LOUPE_TOOL_CALL_EXTRACTION (lenient) */
  toolCallExtraction?: ExtractionPolicy;
}

export interface LoopSettings extends SessionBudgets, LoopPolicies, SamplingSettings, ExtractionSettings {
  profile: LoopProfileName;
}

/** ollama-provider.spec.md / direct-process.spec.md: OLLAMA_NUM_CTX defaults to 8192. */
export const DEFAULT_NUM_CTX = 8192;

/** mcp-agent-technical-spec.md §6: execute_command has a 30 s timeout. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/** The provider's default OLLAMA_NUM_PREDICT (loupe-config.ts), for settings resolved without the environment. */
export const DEFAULT_NUM_PREDICT = 2048;

/** How long a session waits for a person's approval before counting it as rejected. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

export const DEFAULT_BUDGETS: Readonly<SessionBudgets> = {
  numCtx: DEFAULT_NUM_CTX,
  toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
  approvalTimeoutMs: DEFAULT_APPROVAL_TIMEOUT_MS,
  numPredict: DEFAULT_NUM_PREDICT,
};
