import { promptCount } from '../provider/ollama/prompt-count-semantics';
import { PROMPT_FIT_MARGIN, checkPromptFit } from './prompt-fit';

describe('checkPromptFit (guard against Ollama truncating silently)', () => {
  it('allows a 25% disagreement by default', () => {
    expect(PROMPT_FIT_MARGIN).toBe(0.25);
  });

  it.each([
    {
      name: 'passes a prompt that fits and agrees with the report',
      input: { estimatedPromptTokens: 5000, promptEvalCount: 4800, numCtx: 8192 },
      expected: null,
    },
    {
      name: 'flags an estimate above num_ctx before sending',
      input: { estimatedPromptTokens: 9000, numCtx: 8192 },
      expected: { kind: 'context_overflow', reason: 'prompt_exceeds_num_ctx', estimated: 9000, reported: null, numCtx: 8192 },
    },
    {
      name: 'flags an estimate above num_ctx even when the report looks fine',
      input: { estimatedPromptTokens: 9000, promptEvalCount: 8100, numCtx: 8192 },
      expected: { kind: 'context_overflow', reason: 'prompt_exceeds_num_ctx', estimated: 9000, reported: 8100, numCtx: 8192 },
    },
    {
      name: 'flags a report far below an estimate near num_ctx (messages were dropped)',
      input: { estimatedPromptTokens: 8100, promptEvalCount: 6000, numCtx: 8192 },
      expected: { kind: 'context_overflow', reason: 'estimate_mismatch', estimated: 8100, reported: 6000, numCtx: 8192 },
    },
    {
      name: 'does not flag a low report when the estimate was not near num_ctx',
      input: { estimatedPromptTokens: 6000, promptEvalCount: 3000, numCtx: 8192 },
      expected: null,
    },
    {
      name: 'does not flag a pessimistic estimate far from num_ctx',
      input: { estimatedPromptTokens: 4000, promptEvalCount: 2000, numCtx: 8192 },
      expected: null,
    },
    {
      name: 'does not flag a report within the margin',
      input: { estimatedPromptTokens: 8000, promptEvalCount: 6001, numCtx: 8192 },
      expected: null,
    },
    {
      name: 'does not flag a report above the estimate',
      input: { estimatedPromptTokens: 7000, promptEvalCount: 7500, numCtx: 8192 },
      expected: null,
    },
    {
      name: 'honours a tighter margin',
      input: { estimatedPromptTokens: 8000, promptEvalCount: 7000, numCtx: 8192, margin: 0.1 },
      expected: { kind: 'context_overflow', reason: 'estimate_mismatch', estimated: 8000, reported: 7000, numCtx: 8192 },
    },
    {
      name: 'passes an estimate of exactly num_ctx without a report',
      input: { estimatedPromptTokens: 8192, numCtx: 8192 },
      expected: null,
    },
  ])('$name', ({ input, expected }) => {
    expect(checkPromptFit(input)).toEqual(expected);
  });
});

describe('checkPromptFit with counts read per server version (never flag a cached turn reported small)', () => {
  // the window is the runner's loaded context (from /api/ps), the estimate the body as sent
  it.each([
    {
      name: '0.30.x cached turn near the context, no cached field: not judged',
      version: '0.30.3',
      count: 40,
      cached: undefined,
      expected: null,
    },
    {
      name: '0.30.x cached turn with the cached field: evaluated + cached agrees',
      version: '0.30.3',
      count: 40,
      cached: 7600,
      expected: null,
    },
    {
      name: '0.30.x with the cached field, far below the estimate: truncated',
      version: '0.30.3',
      count: 40,
      cached: 5000,
      expected: 'estimate_mismatch',
    },
    { name: 'current server reports the whole prompt: agrees', version: '0.33.0', count: 7700, cached: 7600, expected: null },
    {
      name: 'current server, whole prompt far below: truncated',
      version: '0.33.0',
      count: 5200,
      cached: 5000,
      expected: 'estimate_mismatch',
    },
    {
      name: 'early build omitted the count (fully cached): not judged',
      version: '0.1.29',
      count: undefined,
      cached: undefined,
      expected: null,
    },
  ])('$name', ({ version, count, cached, expected }) => {
    const total = promptCount({ version, promptEvalCount: count, cachedCount: cached }).total;
    const fit = checkPromptFit({ estimatedPromptTokens: 7800, promptEvalCount: total, numCtx: 8192 });
    expect(fit?.reason ?? null).toBe(expected);
  });

  it('judges against the loaded context, not the requested one: far from a larger loaded context, nothing is flagged', () => {
    // requested 8192, but the runner was loaded at 32768 (/api/ps): a small report is a pessimistic estimate
    expect(checkPromptFit({ estimatedPromptTokens: 7800, promptEvalCount: 3000, numCtx: 32768 })).toBeNull();
    expect(checkPromptFit({ estimatedPromptTokens: 7800, promptEvalCount: 3000, numCtx: 8192 })?.reason).toBe('estimate_mismatch');
  });
});
