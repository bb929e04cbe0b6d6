// Before each model call, as the session's profile decides: shrink the context when the last prompt's
// actual token count says so (compact, trim or clear), then prune (mark, don't delete), then trim.
// The decisions are pure (src/context, ./policies/context-policy); this file applies them and
// records each one with its evidence.
import {
  applyCompaction,
  applyPrune,
  buildCompactionRequest,
  decidePrune,
  decideTrim,
  estimateMessageTokens,
  estimateMessagesTokens,
  type TrimDecision,
} from '../context';
import { summaryContent } from '../context/compaction';
import { splitPinned } from '../context/transcript';
import type { LoopRuntime } from './loop-runtime';
import { runInference } from './inference-step';
import { judgeCompaction } from './policies/compaction-baseline';
import { compactionOptions, pruneOptions, trimOptions, usageOverflow } from './policies/context-policy';

export async function prepareContext(rt: LoopRuntime, iteration: number): Promise<void> {
  const overflow = usageOverflow(rt.settings, rt.lastPromptTokens);
  if (overflow) {
    rt.record('context_overflow', { ...overflow, phase: 'before_request', action: rt.settings.overflowAction }, iteration);
    await shrinkContext(rt, iteration, overflow.reason);
  }
  if (rt.settings.pruneAfter === 'each_request') prune(rt, iteration);
  const options = trimOptions(rt.settings);
  const trim = options && decideTrim(rt.context, options);
  if (trim) applyTrim(rt, trim, iteration);
}

/** The profile's answer to an overflow: an LLM summary, a trim, or a cleared history. */
export async function shrinkContext(rt: LoopRuntime, iteration: number, cause: string, action = rt.settings.overflowAction): Promise<void> {
  rt.lastPromptTokens = undefined;
  if (action === 'clear_history') clearHistory(rt, iteration, cause);
  else if (action === 'trim') fallbackTrim(rt, iteration, cause);
  else await compactOrTrim(rt, iteration, cause);
}

/** dexto's plan prunes at the end of a step that ran tools, after its termination check (context-management-plan.md loop step 6). */
export function pruneAfterToolStep(rt: LoopRuntime, iteration: number): void {
  if (rt.settings.pruneAfter === 'tool_step') prune(rt, iteration);
}

function prune(rt: LoopRuntime, iteration: number | null): void {
  const options = pruneOptions(rt.settings);
  const decision = options && decidePrune(rt.context, options);
  if (!decision) return;
  const now = Date.now();
  rt.context = applyPrune(rt.context, decision, now).map((m) =>
    // the pruned output lives on in Postgres; dropping it here keeps long sessions' memory bounded
    decision.indexes.includes(m.index) ? { ...m, content: '' } : m,
  );
  for (const idx of decision.indexes) rt.recorder.messageCompacted(idx, new Date(now));
  rt.record('prune', { ...decision }, iteration);
}

function applyTrim(rt: LoopRuntime, trim: TrimDecision, iteration: number | null, cause?: string): void {
  rt.context = trim.messages;
  rt.record(
    'trim',
    {
      reason: trim.reason,
      cause,
      droppedIndexes: trim.droppedIndexes,
      summaries: trim.summaries.map((s) => s.line),
      tokensBefore: trim.tokensBefore,
      tokensAfter: trim.tokensAfter,
      budgetTokens: trim.budgetTokens,
      messagesAfter: trim.messages.length,
    },
    iteration,
  );
}

/** A forced trim for when compaction is unavailable or failed: keep about half the context. */
function fallbackTrim(rt: LoopRuntime, iteration: number | null, cause: string): void {
  const n = rt.context.length;
  const { numCtx, tokenEstimator: estimator } = rt.settings;
  const trim =
    decideTrim(rt.context, {
      numCtx,
      estimator,
      maxMessages: Math.max(4, Math.floor(n / 2)),
      keepRecent: Math.max(2, Math.floor(n / 4)),
    }) ?? decideTrim(rt.context, { numCtx, estimator, budgetRatio: 0.3 });
  if (trim) applyTrim(rt, trim, iteration, cause);
}

/** The MCP agent's recovery (mcp-agent-technical-spec.md §4): the history goes, the system prompt and the task stay. */
export function clearHistory(rt: LoopRuntime, iteration: number | null, cause: string): void {
  const estimator = rt.settings.tokenEstimator;
  const before = rt.context;
  const { pinned, rest } = splitPinned(before);
  rt.context = pinned;
  rt.record(
    'history_cleared',
    {
      cause,
      droppedIndexes: rest.map((m) => m.index).filter((i) => i >= 0),
      tokensBefore: estimateMessagesTokens(before, estimator),
      tokensAfter: estimateMessagesTokens(pinned, estimator),
      messagesAfter: pinned.length,
    },
    iteration,
  );
}

/**
 * LLM summary of the older context (tools disabled). Under a validating profile an empty or inflated
 * summary is rejected, the loop falls back to trimming, and later overflows go straight to trimming.
 */
export async function compactOrTrim(rt: LoopRuntime, iteration: number, cause: string): Promise<void> {
  const lastPromptTokens = rt.lastPromptTokens;
  rt.lastPromptTokens = undefined;
  if (rt.compactionFailed) {
    fallbackTrim(rt, iteration, `${cause}; compaction disabled after an earlier failure`);
    return;
  }
  const options = compactionOptions(rt.settings);
  const request = buildCompactionRequest(rt.context, { ...options, maxInputTokens: Math.floor(rt.settings.numCtx * 0.6) });
  if (!request) {
    fallbackTrim(rt, iteration, `${cause}; nothing to compact`);
    return;
  }
  const result = await runInference(rt, iteration, {
    purpose: 'compaction',
    messages: request.messages,
    tools: [],
  });
  const usage = {
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    wallMs: Math.round(result.timings.wallMs),
  };
  const summaryTokens = estimateMessageTokens({ role: 'user', content: summaryContent(result.content) }, options.estimator);
  const validation = judgeCompaction(rt.settings.compactionBaseline, {
    summaryText: result.content,
    lastPromptTokens,
    replacedTokens: request.tokensBefore,
    summaryTokens,
    contextTokensBefore: estimateMessagesTokens(rt.context, options.estimator),
    contextTokensAfter: applyCompaction(rt.context, result.content, request.keepFromIndex, undefined, options.estimator).tokensAfter,
  });
  if (!validation.ok && rt.settings.compactionValidation === 'reject_empty_or_inflated') {
    rt.compactionFailed = true;
    rt.record(
      'compaction',
      {
        ok: false,
        reason: validation.reason,
        cause,
        tokensBefore: validation.tokensBefore,
        tokensAfter: validation.tokensAfter,
        basis: validation.basis,
        summaryChars: result.content.length,
        usage,
      },
      iteration,
    );
    fallbackTrim(rt, iteration, `${cause}; compaction rejected (${validation.reason})`);
    return;
  }
  const before = estimateMessagesTokens(rt.context, options.estimator);
  const summaryIndex = rt.recorder.message({
    role: 'user',
    kind: 'summary',
    content: result.content,
    toolCalls: null,
    toolCallId: null,
    toolName: null,
    thinking: null,
    iteration,
  });
  const applied = applyCompaction(rt.context, result.content, request.keepFromIndex, summaryIndex, options.estimator);
  rt.context = applied.messages;
  rt.record(
    'compaction',
    {
      ok: true,
      cause,
      replacedIndexes: request.replacedIndexes,
      keepFromIndex: request.keepFromIndex,
      tokensBefore: before,
      tokensAfter: applied.tokensAfter,
      summaryTokens,
      summaryIndex,
      usage,
      ...(validation.ok ? {} : { reason: `accepted unvalidated (${validation.reason})` }),
    },
    iteration,
  );
}
