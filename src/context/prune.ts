import type { LlmMessage } from '../provider/llm-types';
import { estimateContentTokens, estimateTokens, type TokenEstimatorName } from './token-estimation';
import type { TranscriptMessage } from './transcript';
import { COMPACTED_PLACEHOLDER, isToolResult, modelContent } from './transcript';

// opencode prunes with PRUNE_PROTECT = 40k and PRUNE_MINIMUM = 20k tokens, sized for 200k windows; on
// an 8k local window those would never fire. We scale with num_ctx instead and keep opencode's
// values as the caps (which they reach at 160k/200k):
// - protect 25% of the window: the newest tool output the model is working from stays verbatim
//   (8k → 2,048; 16k → 4,096; 32k → 8,192), never below 2,000 tokens (one mid-size file read).
// - minimum 10% of the window: each prune rewrites an early part of the prompt and so invalidates
//   Ollama's KV cache from there on; it is only worth it when it frees a real share of the window
//   (8k → 819; 16k → 1,638; 32k → 3,276), never below 500 tokens.
export const PRUNE_PROTECT_SHARE = 0.25;
export const PRUNE_PROTECT_FLOOR = 2_000;
export const PRUNE_PROTECT_CAP = 40_000;
export const PRUNE_MINIMUM_SHARE = 0.1;
export const PRUNE_MINIMUM_FLOOR = 500;
export const PRUNE_MINIMUM_CAP = 20_000;
export const PRUNE_KEEP_TURNS = 2;

export interface PruneOptions {
  numCtx: number;
  protectTokens?: number;
  minimumTokens?: number;
  /** tool names whose output is never pruned (opencode exempts `skill`) */
  protectedTools?: readonly string[];
  keepTurns?: number;
  /**
   * What counts as a turn. opencode's unit is a user message, but a Loupe session is usually one
   * prompt followed by up to 25 model steps, so 'user' would never prune inside a task. 'step'
   * (default) is one assistant message with its tool results.
   */
  turnBoundary?: 'step' | 'user';
  estimator?: TokenEstimatorName;
  /** dexto's plan (context-management-plan.md §3, `if (tool.status !== 'completed') continue`): failed output is neither counted nor cleared */
  completedOnly?: boolean;
}

export interface PruneDecision {
  kind: 'prune';
  /** transcript indexes of the tool results to mark with compactedAt */
  indexes: number[];
  /** estimated tokens freed, net of the placeholders */
  tokensFreed: number;
  protectTokens: number;
  minimumTokens: number;
}

export function defaultProtectTokens(numCtx: number): number {
  return clamp(Math.floor(numCtx * PRUNE_PROTECT_SHARE), PRUNE_PROTECT_FLOOR, PRUNE_PROTECT_CAP);
}

export function defaultMinimumTokens(numCtx: number): number {
  return clamp(Math.floor(numCtx * PRUNE_MINIMUM_SHARE), PRUNE_MINIMUM_FLOOR, PRUNE_MINIMUM_CAP);
}

/**
 * Walks the transcript backwards: skips the last keepTurns turns, stops at a summary or an
 * already-compacted result (everything older was handled by an earlier prune), counts tool output
 * into the protected budget, and proposes everything past it — only if that frees enough.
 */
export function decidePrune(messages: readonly TranscriptMessage[], options: PruneOptions): PruneDecision | null {
  const {
    numCtx,
    protectTokens = defaultProtectTokens(numCtx),
    minimumTokens = defaultMinimumTokens(numCtx),
    protectedTools = [],
    keepTurns = PRUNE_KEEP_TURNS,
    turnBoundary = 'step',
    estimator,
    completedOnly = false,
  } = options;
  const placeholderTokens = estimateTokens(COMPACTED_PLACEHOLDER, estimator);
  const isBoundary = (m: TranscriptMessage) =>
    turnBoundary === 'step' ? m.role === 'assistant' : m.kind === 'prompt' || m.kind === 'injected';

  let turns = 0;
  let seen = 0;
  let freed = 0;
  const indexes: number[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.kind === 'summary') break;
    if (isBoundary(m)) turns++;
    if (turns < keepTurns) continue;
    if (!isToolResult(m)) continue;
    if (completedOnly && m.toolFailed) continue;
    if (m.compactedAt !== undefined) break;
    if (m.toolName !== undefined && protectedTools.includes(m.toolName)) continue;
    const tokens = estimateContentTokens(m, estimator);
    seen += tokens;
    if (seen > protectTokens) {
      indexes.push(m.index);
      freed += tokens - placeholderTokens;
    }
  }
  if (indexes.length === 0 || freed < minimumTokens) return null;
  return { kind: 'prune', indexes: indexes.reverse(), tokensFreed: freed, protectTokens, minimumTokens };
}

/** Returns a copy of the transcript with the decision's results marked at `now`. */
export function applyPrune(messages: readonly TranscriptMessage[], decision: PruneDecision, now: number): TranscriptMessage[] {
  const marked = new Set(decision.indexes);
  return messages.map((m) => (marked.has(m.index) ? { ...m, compactedAt: now } : m));
}

/** What the provider gets: transcript bookkeeping dropped, pruned results replaced by the placeholder. */
export function renderForModel(transcript: readonly TranscriptMessage[]): LlmMessage[] {
  return transcript.map((m) => {
    // one rendering per (immutable) message: the same object each call, so its token estimate is cached too
    let out = RENDERED.get(m);
    if (out) return out;
    out = { role: m.role, content: modelContent(m) };
    if (m.toolCalls !== undefined) out.toolCalls = m.toolCalls;
    if (m.toolCallId !== undefined) out.toolCallId = m.toolCallId;
    if (m.toolName !== undefined) out.toolName = m.toolName;
    if (m.thinking !== undefined) out.thinking = m.thinking;
    RENDERED.set(m, out);
    return out;
  });
}

const RENDERED = new WeakMap<TranscriptMessage, LlmMessage>();

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
