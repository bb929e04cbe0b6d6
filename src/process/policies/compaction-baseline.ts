// What a summary is checked against for inflation. Loupe (today's rule): the summary's estimate
// against the estimate of what it replaces. gemini-cli (context/chatCompressionService.ts
// compress(); context-management-plan.md "Gemini-CLI Approach": "Heuristic … + API fallback"): the
// new history's estimate against the last prompt's token count as the API reported it —
// `lastPromptTokenCount > 0 ? lastPromptTokenCount : estimateTokenCountSync(history)` — and only a
// count above it (not equal) fails as COMPRESSION_FAILED_INFLATED_TOKEN_COUNT. Pure.
import type { CompactionValidation } from '../../context';

export type CompactionBaseline = 'replaced_estimate' | 'last_prompt';

export interface CompactionFigures {
  summaryText: string;
  /** prompt_eval_count of the last step (the API's count), if any */
  lastPromptTokens?: number;
  /** estimates: what the summary replaces, the summary, the whole context before and after */
  replacedTokens: number;
  summaryTokens: number;
  contextTokensBefore: number;
  contextTokensAfter: number;
}

export type JudgedCompaction = CompactionValidation & {
  /** where tokensBefore came from: the estimate of the replaced part, the API's count, or (no count) the context's estimate */
  basis: 'replaced_estimate' | 'api' | 'context_estimate';
};

export function judgeCompaction(baseline: CompactionBaseline, f: CompactionFigures): JudgedCompaction {
  if (baseline === 'last_prompt') {
    const api = f.lastPromptTokens !== undefined && f.lastPromptTokens > 0;
    const tokensBefore = api ? f.lastPromptTokens! : f.contextTokensBefore;
    const basis = api ? 'api' : 'context_estimate';
    if (f.summaryText.trim() === '') return { ok: false, reason: 'empty', tokensBefore, tokensAfter: 0, basis };
    const tokensAfter = f.contextTokensAfter;
    return tokensAfter > tokensBefore
      ? { ok: false, reason: 'inflated', tokensBefore, tokensAfter, basis }
      : { ok: true, tokensBefore, tokensAfter, basis };
  }
  const tokensBefore = f.replacedTokens;
  if (f.summaryText.trim() === '') return { ok: false, reason: 'empty', tokensBefore, tokensAfter: 0, basis: 'replaced_estimate' };
  return f.summaryTokens >= tokensBefore
    ? { ok: false, reason: 'inflated', tokensBefore, tokensAfter: f.summaryTokens, basis: 'replaced_estimate' }
    : { ok: true, tokensBefore, tokensAfter: f.summaryTokens, basis: 'replaced_estimate' };
}
