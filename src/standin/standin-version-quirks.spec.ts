import { parseVersion, promptCountQuirks, reportedPromptCounts, reusableTokens } from './standin-version-quirks';

describe('version quirks of prompt_eval_count', () => {
  it('parses versions, prereleases and a leading v', () => {
    expect(parseVersion('0.30.2')).toEqual([0, 30, 2]);
    expect(parseVersion('v0.34.0-rc1')).toEqual([0, 34, 0]);
    expect(parseVersion('0.1')).toEqual([0, 1, 0]);
    expect(parseVersion('dev')).toBeUndefined();
  });

  it.each([
    ['0.1.30', { excludesCached: true, wholePromptCacheable: true, reportsCachedCount: false }],
    ['0.17.5', { excludesCached: false, wholePromptCacheable: false, reportsCachedCount: false }],
    ['0.29.9', { excludesCached: false, wholePromptCacheable: false, reportsCachedCount: false }],
    ['0.30.0', { excludesCached: true, wholePromptCacheable: false, reportsCachedCount: false }],
    ['0.30.3', { excludesCached: true, wholePromptCacheable: false, reportsCachedCount: false }],
    ['0.30.4', { excludesCached: false, wholePromptCacheable: false, reportsCachedCount: false }],
    ['0.33.2', { excludesCached: false, wholePromptCacheable: false, reportsCachedCount: false }],
    ['0.34.0', { excludesCached: false, wholePromptCacheable: false, reportsCachedCount: true }],
  ])('%s', (version, quirks) => {
    expect(promptCountQuirks(version)).toEqual(quirks);
  });

  it('reports what each version would for a 1000-token prompt with 900 cached', () => {
    expect(reportedPromptCounts(1000, 900, promptCountQuirks('0.17.5'))).toEqual({ promptEvalCount: 1000 });
    expect(reportedPromptCounts(1000, 900, promptCountQuirks('0.30.1'))).toEqual({ promptEvalCount: 100 });
    expect(reportedPromptCounts(1000, 900, promptCountQuirks('0.34.1'))).toEqual({ promptEvalCount: 1000, promptEvalCachedCount: 900 });
    expect(reportedPromptCounts(1000, 0, promptCountQuirks('0.34.1'))).toEqual({ promptEvalCount: 1000, promptEvalCachedCount: 0 });
    // an early build with the whole prompt cached: 0, which omitempty leaves out
    expect(reportedPromptCounts(1000, 1000, promptCountQuirks('0.1.30'))).toEqual({ promptEvalCount: 0 });
  });

  it('the runner re-evaluates at least the last token, except on early builds', () => {
    expect(reusableTokens(1000, 1000, promptCountQuirks('0.17.5'))).toBe(999);
    expect(reusableTokens(1000, 400, promptCountQuirks('0.17.5'))).toBe(400);
    expect(reusableTokens(1000, 1000, promptCountQuirks('0.1.30'))).toBe(1000);
  });
});
