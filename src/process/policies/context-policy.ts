// The context decisions a loop profile makes, as options for the pure context functions
// (src/context) and as decisions of their own: which trigger shrinks the context, and what happens
// to a request that will not fit. Pure: context-preparation applies them.
import {
  checkPromptFit,
  defaultMinimumTokens,
  defaultProtectTokens,
  defaultReservedOutputTokens,
  isContextOverflow,
  isContextRatioExceeded,
  willOverflow,
  type ContextRatioOverflow,
  type PromptFitOverflow,
  type PruneOptions,
  type TrimOptions,
  type UsableWindowOverflow,
  type WillOverflow,
} from '../../context';
import type { LoopSettings } from './loop-settings';

type Settings = Pick<
  LoopSettings,
  | 'numCtx'
  | 'tokenEstimator'
  | 'trimMaxMessages'
  | 'trimKeepRecent'
  | 'trimBudgetRatio'
  | 'trimBudgetTokens'
  | 'trimSummaries'
  | 'prune'
  | 'pruneProtectTokens'
  | 'pruneMinimumTokens'
  | 'pruneKeepTurns'
  | 'pruneProtectedTools'
  | 'pruneCompletedOnly'
  | 'overflowTrigger'
  | 'overflowRatio'
  | 'outputReserve'
  | 'numPredict'
  | 'compactionKeep'
  | 'compactionKeepTurns'
  | 'compactionKeepShare'
  | 'preflight'
>;

/** The profile's trimming, or null when it never trims. */
export function trimOptions(s: Settings): TrimOptions | null {
  if (s.trimMaxMessages === 0 && s.trimBudgetRatio === 0 && s.trimBudgetTokens === 0) return null;
  return {
    numCtx: s.numCtx,
    maxMessages: s.trimMaxMessages,
    keepRecent: s.trimKeepRecent,
    budgetRatio: s.trimBudgetRatio,
    budgetTokens: s.trimBudgetTokens,
    summaries: s.trimSummaries,
    estimator: s.tokenEstimator,
  };
}

/** The profile's pruning: budgets scaled to the window (Loupe), fixed (opencode, dexto, gemini-cli), or none. */
export function pruneOptions(s: Settings): PruneOptions | null {
  if (s.prune === 'off') return null;
  const scaled = s.prune === 'scaled';
  return {
    numCtx: s.numCtx,
    protectTokens: scaled ? defaultProtectTokens(s.numCtx) : s.pruneProtectTokens,
    minimumTokens: scaled ? defaultMinimumTokens(s.numCtx) : s.pruneMinimumTokens,
    keepTurns: s.pruneKeepTurns,
    protectedTools: s.pruneProtectedTools,
    estimator: s.tokenEstimator,
    ...(s.pruneCompletedOnly ? { completedOnly: true } : {}),
  };
}

/** Whether the last prompt's actual token count calls for shrinking the context before the next call. */
export function usageOverflow(s: Settings, lastPromptTokens: number | undefined): UsableWindowOverflow | ContextRatioOverflow | null {
  if (lastPromptTokens === undefined || s.overflowTrigger === 'off') return null;
  if (s.overflowTrigger === 'context_ratio')
    return isContextRatioExceeded({ promptTokens: lastPromptTokens, numCtx: s.numCtx, ratio: s.overflowRatio });
  return isContextOverflow({ promptTokens: lastPromptTokens, numCtx: s.numCtx, reservedOutputTokens: reservedOutputTokens(s) });
}

/** opencode's OUTPUT_TOKEN_MAX, the cap dexto's plan puts on a model's maxOutput. */
export const OUTPUT_TOKEN_MAX = 32_000;

/**
 * Room kept for the reply: Loupe's min(2,048, window / 4), or dexto's plan, min(model.maxOutput,
 * OUTPUT_TOKEN_MAX) (context-management-plan.md §2 isOverflow), where maxOutput is num_predict.
 */
export function reservedOutputTokens(s: Pick<LoopSettings, 'outputReserve' | 'numPredict' | 'numCtx'>): number {
  if (s.outputReserve === 'max_output') return Math.min(s.numPredict, OUTPUT_TOKEN_MAX);
  return defaultReservedOutputTokens(s.numCtx);
}

/** What a summary keeps verbatim: the last N steps (within opencode's clamp when asked), or the newest share. */
export function compactionOptions(s: Settings): {
  keepRecentTurns: number;
  maxKeepShare?: number;
  maxKeepTokens?: number;
  estimator: Settings['tokenEstimator'];
} {
  const estimator = s.tokenEstimator;
  if (s.compactionKeep === 'share') return { keepRecentTurns: Number.MAX_SAFE_INTEGER, maxKeepShare: s.compactionKeepShare, estimator };
  if (s.compactionKeep === 'turns_clamped')
    return { keepRecentTurns: s.compactionKeepTurns, maxKeepTokens: opencodeTailBudget(s.numCtx), estimator };
  return { keepRecentTurns: s.compactionKeepTurns, estimator };
}

export type PreflightDecision =
  | { kind: 'send' }
  | { kind: 'record'; overflow: PromptFitOverflow }
  | { kind: 'refuse'; overflow: WillOverflow }
  | { kind: 'clear_history'; overflow: PromptFitOverflow };

/**
 * Before a step's request: Loupe records an estimate over num_ctx (Ollama would truncate silently);
 * gemini-cli refuses to send what the window cannot take after the last prompt; the MCP agent
 * clears the history when history, tools and prompt together exceed the window.
 */
export function decidePreflight(
  s: Settings,
  input: { estimatedTokens: number; toolTokens: number; newTokens: number; lastPromptTokens?: number },
): PreflightDecision {
  switch (s.preflight) {
    case 'off':
      return { kind: 'send' };
    case 'record': {
      const overflow = checkPromptFit({ estimatedPromptTokens: input.estimatedTokens, numCtx: s.numCtx });
      return overflow ? { kind: 'record', overflow } : { kind: 'send' };
    }
    case 'refuse': {
      const overflow = willOverflow({ newTokens: input.newTokens, lastPromptTokens: input.lastPromptTokens ?? 0, numCtx: s.numCtx });
      return overflow ? { kind: 'refuse', overflow } : { kind: 'send' };
    }
    case 'clear_history': {
      const overflow = checkPromptFit({ estimatedPromptTokens: input.estimatedTokens + input.toolTokens, numCtx: s.numCtx });
      return overflow ? { kind: 'clear_history', overflow } : { kind: 'send' };
    }
  }
}

/** opencode keeps the last steps only if they fit clamp(25% of the usable window, 2k, 8k) tokens. */
export function opencodeTailBudget(numCtx: number): number {
  const usable = numCtx - defaultReservedOutputTokens(numCtx);
  return Math.min(8_000, Math.max(2_000, Math.floor(usable * 0.25)));
}
