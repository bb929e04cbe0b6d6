// Before each model call: reactive compaction when the last prompt overflowed the usable window,
// then pruning (mark, don't delete), then trimming. The policies are pure (src/context); this file
// applies their decisions and records each one with its evidence.
import {
  applyCompaction, applyPrune, buildCompactionRequest, decidePrune, decideTrim,
  estimateMessagesTokens, isContextOverflow, validateCompaction, type TrimDecision,
} from '../context';
import type { LoopRuntime } from './loop-runtime';
import { runInference } from './inference-step';

export async function prepareContext(rt: LoopRuntime, iteration: number): Promise<void> {
  const numCtx = rt.settings.numCtx;
  if (rt.lastPromptTokens !== undefined) {
    const overflow = isContextOverflow({ promptTokens: rt.lastPromptTokens, numCtx });
    if (overflow) {
      rt.record('context_overflow', { ...overflow, phase: 'before_request' }, iteration);
      await compactOrTrim(rt, iteration, 'usable_window_exceeded');
    }
  }
  prune(rt, iteration);
  const trim = decideTrim(rt.context, { numCtx });
  if (trim) applyTrim(rt, trim, iteration);
}

function prune(rt: LoopRuntime, iteration: number | null): void {
  const decision = decidePrune(rt.context, { numCtx: rt.settings.numCtx });
  if (!decision) return;
  const now = Date.now();
  rt.context = applyPrune(rt.context, decision, now).map((m) =>
    // the pruned output lives on in Postgres; dropping it here keeps long sessions' memory bounded
    decision.indexes.includes(m.index) ? { ...m, content: '' } : m);
  for (const idx of decision.indexes) rt.recorder.messageCompacted(idx, new Date(now));
  rt.record('prune', { ...decision }, iteration);
}

function applyTrim(rt: LoopRuntime, trim: TrimDecision, iteration: number | null, cause?: string): void {
  rt.context = trim.messages;
  rt.record('trim', {
    reason: trim.reason, cause, droppedIndexes: trim.droppedIndexes, summaries: trim.summaries.map((s) => s.line),
    tokensBefore: trim.tokensBefore, tokensAfter: trim.tokensAfter, budgetTokens: trim.budgetTokens,
    messagesAfter: trim.messages.length,
  }, iteration);
}

/** A forced trim for when compaction is unavailable or failed: keep about half the context. */
function fallbackTrim(rt: LoopRuntime, iteration: number | null, cause: string): void {
  const n = rt.context.length;
  const trim = decideTrim(rt.context, { numCtx: rt.settings.numCtx, maxMessages: Math.max(4, Math.floor(n / 2)), keepRecent: Math.max(2, Math.floor(n / 4)) })
    ?? decideTrim(rt.context, { numCtx: rt.settings.numCtx, budgetRatio: 0.3 });
  if (trim) applyTrim(rt, trim, iteration, cause);
}

/**
 * LLM summary of the older context (tools disabled), validated: an empty or inflated summary is
 * rejected and the loop falls back to trimming, and later overflows go straight to trimming.
 */
export async function compactOrTrim(rt: LoopRuntime, iteration: number, cause: string): Promise<void> {
  rt.lastPromptTokens = undefined;
  if (rt.compactionFailed) {
    fallbackTrim(rt, iteration, `${cause}; compaction disabled after an earlier failure`);
    return;
  }
  const request = buildCompactionRequest(rt.context, { maxInputTokens: Math.floor(rt.settings.numCtx * 0.6) });
  if (!request) {
    fallbackTrim(rt, iteration, `${cause}; nothing to compact`);
    return;
  }
  const result = await runInference(rt, iteration, {
    purpose: 'compaction',
    messages: request.messages,
    tools: [],
  });
  const usage = { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, wallMs: Math.round(result.timings.wallMs) };
  const validation = validateCompaction(result.content, request.tokensBefore);
  if (!validation.ok) {
    rt.compactionFailed = true;
    rt.record('compaction', { ok: false, reason: validation.reason, cause, tokensBefore: validation.tokensBefore, tokensAfter: validation.tokensAfter, summaryChars: result.content.length, usage }, iteration);
    fallbackTrim(rt, iteration, `${cause}; compaction rejected (${validation.reason})`);
    return;
  }
  const before = estimateMessagesTokens(rt.context);
  const summaryIndex = rt.recorder.message({
    role: 'user', kind: 'summary', content: result.content, toolCalls: null, toolCallId: null, toolName: null,
    thinking: null, iteration,
  });
  const applied = applyCompaction(rt.context, result.content, request.keepFromIndex, summaryIndex);
  rt.context = applied.messages;
  rt.record('compaction', {
    ok: true, cause, replacedIndexes: request.replacedIndexes, keepFromIndex: request.keepFromIndex,
    tokensBefore: before, tokensAfter: applied.tokensAfter, summaryTokens: validation.tokensAfter, summaryIndex, usage,
  }, iteration);
}
