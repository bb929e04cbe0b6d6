import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOOP_PROFILE_NAMES } from '../policies/loop-settings';
import { POLICY_ROWS } from './loop-profile';
import { DEFAULT_LOOP_SETTINGS, LOOP_PROFILES, profileSettings, resolveLoopSettings } from './profiles';
import { TABLE_END, TABLE_START, renderProfilesTable, rowSources } from './profiles-table';

describe('loop profiles', () => {
  it("defaults to the loupe profile, whose constants are the corvid spec's where it follows it", () => {
    expect(DEFAULT_LOOP_SETTINGS).toEqual(
      expect.objectContaining({
        profile: 'loupe',
        maxToolIterations: 25,
        numCtx: 8192,
        toolTimeoutMs: 30_000,
        repeatThreshold: 3,
        sameToolThreshold: 5,
        cycleRepetitions: 3,
        errorRepeatThreshold: 3,
        maxNudges: 2,
        maxMidChainNudges: 2,
        trimMaxMessages: 40,
        trimKeepRecent: 30,
        trimBudgetRatio: 0.7,
        approvalTimeoutMs: 300_000,
        onRejection: 'continue',
        doomLoop: 'break',
        toolExecution: 'parallel',
        retrySchedule: 'loupe',
      }),
    );
  });

  it('applies layers in order, an undefined value overriding nothing', () => {
    const s = resolveLoopSettings({ maxToolIterations: 10, numCtx: undefined }, undefined, { numCtx: 4096, maxToolIterations: undefined });
    expect(s).toEqual({ ...DEFAULT_LOOP_SETTINGS, maxToolIterations: 10, numCtx: 4096 });
  });

  it('starts from the profile the last layer names, then applies every override', () => {
    const s = resolveLoopSettings({ profile: 'corvid', maxToolIterations: 7 }, { profile: 'opencode' }, { onRejection: 'continue' });
    expect(s).toEqual({ ...profileSettings('opencode'), maxToolIterations: 7, onRejection: 'continue' });
  });

  it("resolves each spec's disagreements its own way", () => {
    const by = (name: string) => profileSettings(name);
    expect([by('corvid').doomLoop, by('opencode').doomLoop, by('gemini-cli').doomLoop]).toEqual(['break', 'ask', 'nudge']);
    expect([by('corvid').onRejection, by('opencode').onRejection]).toEqual(['continue', 'stop']);
    expect([
      by('corvid').trimMaxMessages,
      by('corvid').trimBudgetRatio,
      by('mcp-agent').trimBudgetTokens,
      by('mcp-agent').trimMaxMessages,
    ]).toEqual([40, 0.7, 30_000, 50]);
    expect([by('opencode').overflowRatio, by('gemini-cli').overflowRatio, by('gemini-cli').compactionKeepShare]).toEqual([0.9, 0.5, 0.3]);
    expect([by('dexto').prune, by('dexto').pruneProtectTokens, by('dexto').pruneMinimumTokens]).toEqual(['fixed', 40_000, 20_000]);
    expect([by('corvid').retrySchedule, by('opencode').retrySchedule, by('mcp-agent').retrySchedule]).toEqual([
      'corvid',
      'opencode',
      'none',
    ]);
    expect([by('mcp-agent').preflight, by('mcp-agent').providerOverflow]).toEqual(['clear_history', 'clear_history']);
  });

  it('names the closest profile for a typo', () => {
    expect(() => profileSettings('opencod')).toThrow(/unknown loop profile "opencod" \(did you mean "opencode"\?\)/);
  });

  it('describes every row of every profile, each with the sources of its settings', () => {
    for (const name of LOOP_PROFILE_NAMES) {
      const p = LOOP_PROFILES[name];
      expect(p.name).toBe(name);
      expect(Object.keys(p.choices).sort()).toEqual(Object.keys(POLICY_ROWS).sort());
      for (const row of Object.keys(POLICY_ROWS) as Array<keyof typeof POLICY_ROWS>) {
        expect({ name, row, choice: p.choices[row].length > 0, sources: rowSources(name, row).length > 0 }).toEqual({
          name,
          row,
          choice: true,
          sources: true,
        });
      }
    }
  });

  it('is published in the README, generated and current', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const start = readme.indexOf(TABLE_START);
    const end = readme.indexOf(TABLE_END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(readme.slice(start, end + TABLE_END.length)).toBe(renderProfilesTable());
  });
});
