import { profileSettings } from '../profiles/profiles';
import {
  compactionOptions,
  decidePreflight,
  opencodeTailBudget,
  pruneOptions,
  reservedOutputTokens,
  trimOptions,
  usageOverflow,
} from './context-policy';

describe('context policy by profile', () => {
  it('trims as each profile does, or not at all', () => {
    expect(trimOptions(profileSettings('corvid'))).toEqual(
      expect.objectContaining({ maxMessages: 40, keepRecent: 30, budgetRatio: 0.7, summaries: true, estimator: 'corvid' }),
    );
    expect(trimOptions(profileSettings('mcp-agent'))).toEqual(
      expect.objectContaining({ maxMessages: 50, budgetTokens: 30_000, budgetRatio: 0, summaries: false, estimator: 'chars_per_4' }),
    );
    expect(trimOptions(profileSettings('opencode'))).toBeNull();
  });

  it('prunes with budgets scaled to the window (loupe), fixed (dexto), or not at all (corvid)', () => {
    expect(pruneOptions({ ...profileSettings('loupe'), numCtx: 8192 })).toEqual(
      expect.objectContaining({ protectTokens: 2048, minimumTokens: 819, keepTurns: 2 }),
    );
    expect(pruneOptions(profileSettings('dexto'))).toEqual(
      expect.objectContaining({ protectTokens: 40_000, minimumTokens: 20_000, keepTurns: 0 }),
    );
    expect(pruneOptions(profileSettings('corvid'))).toBeNull();
  });

  it('triggers on actual tokens against the reserve (loupe, dexto) or a share of the window (opencode 90%, gemini-cli 50%)', () => {
    expect(usageOverflow(profileSettings('dexto'), 6_144)).toEqual(
      expect.objectContaining({ reason: 'usable_window_exceeded', usableTokens: 6_144 }),
    );
    expect(usageOverflow(profileSettings('dexto'), 6_143)).toBeNull();
    expect(usageOverflow(profileSettings('opencode'), 7_000)).toBeNull();
    expect(usageOverflow(profileSettings('opencode'), 7_373)).toEqual(
      expect.objectContaining({ reason: 'context_ratio_exceeded', ratio: 0.9 }),
    );
    expect(usageOverflow(profileSettings('gemini-cli'), 4_096)).toEqual(
      expect.objectContaining({ reason: 'context_ratio_exceeded', ratio: 0.5 }),
    );
    expect(usageOverflow(profileSettings('corvid'), 100_000)).toBeNull();
    expect(usageOverflow(profileSettings('loupe'), undefined)).toBeNull();
  });

  it('keeps what each profile keeps when compacting', () => {
    expect(compactionOptions(profileSettings('loupe'))).toEqual({ keepRecentTurns: 2, estimator: 'content_aware' });
    expect(compactionOptions(profileSettings('opencode'))).toEqual({ keepRecentTurns: 2, maxKeepTokens: 2_000, estimator: 'chars_per_4' });
    expect(compactionOptions(profileSettings('gemini-cli'))).toEqual(expect.objectContaining({ maxKeepShare: 0.3, estimator: 'gemini' }));
    expect(opencodeTailBudget(65_536)).toBe(8_000);
  });

  it('checks before sending as each profile does', () => {
    const big = { estimatedTokens: 9_000, toolTokens: 0, newTokens: 100, lastPromptTokens: 1_000 };
    expect(decidePreflight(profileSettings('loupe'), big)).toEqual({
      kind: 'record',
      overflow: expect.objectContaining({ reason: 'prompt_exceeds_num_ctx' }),
    });
    expect(decidePreflight(profileSettings('corvid'), big)).toEqual({ kind: 'send' });
    // the MCP agent counts the tools too
    expect(decidePreflight(profileSettings('mcp-agent'), { estimatedTokens: 8_000, toolTokens: 500, newTokens: 0 })).toEqual(
      expect.objectContaining({ kind: 'clear_history' }),
    );
    expect(decidePreflight(profileSettings('mcp-agent'), { estimatedTokens: 7_000, toolTokens: 500, newTokens: 0 })).toEqual({
      kind: 'send',
    });
    // gemini-cli: what is new against what the window has left after the last prompt
    expect(
      decidePreflight(profileSettings('gemini-cli'), { estimatedTokens: 5_000, toolTokens: 0, newTokens: 3_000, lastPromptTokens: 6_000 }),
    ).toEqual(expect.objectContaining({ kind: 'refuse' }));
    expect(
      decidePreflight(profileSettings('gemini-cli'), { estimatedTokens: 5_000, toolTokens: 0, newTokens: 2_000, lastPromptTokens: 6_000 }),
    ).toEqual({ kind: 'send' });
  });

  it("reserves min(num_predict, OUTPUT_TOKEN_MAX) for the reply under dexto's plan (context-management-plan.md §2)", () => {
    const dexto = profileSettings('dexto');
    expect(reservedOutputTokens({ ...dexto, numCtx: 4096 })).toBe(2048);
    expect(reservedOutputTokens({ ...dexto, numPredict: 64_000 })).toBe(32_000);
    expect(reservedOutputTokens({ ...profileSettings('loupe'), numCtx: 4096 })).toBe(1024);
    expect(usageOverflow({ ...dexto, numCtx: 4096 }, 2500)).toEqual(expect.objectContaining({ usableTokens: 2048 }));
    expect(usageOverflow({ ...profileSettings('loupe'), numCtx: 4096 }, 2500)).toBeNull();
  });

  it("prunes only completed output in dexto's profile", () => {
    expect(pruneOptions(profileSettings('dexto'))).toEqual(expect.objectContaining({ completedOnly: true }));
    expect(pruneOptions(profileSettings('gemini-cli'))).not.toHaveProperty('completedOnly');
  });
});
