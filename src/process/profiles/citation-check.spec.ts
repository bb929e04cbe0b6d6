// Every setting of every profile is cited, and agrees with its citation; each check is shown to fail
// on a profile broken the way it guards against. Pure: the quotes' presence in the shared docs is
// checked by `loupe profiles --check-sources DIR`, here only against a reader given in the test.
import { LOOP_PROFILE_NAMES } from '../policies/loop-settings';
import { checkCitations, checkQuotes, isOff } from './citation-check';
import { normalizeText, parseFigure } from './citations';
import { SETTING_ROWS, SOURCE_FILES, type Citation, type LoopProfile, type SettingName } from './loop-profile';
import { LOOP_PROFILES } from './profiles';

type Profiles = Record<string, LoopProfile>;
const copy = (): Profiles => structuredClone(LOOP_PROFILES) as unknown as Profiles;
const set = (p: Profiles, profile: string, setting: SettingName, value: unknown, citation?: Citation) => {
  const [old, oldCitation] = p[profile].settings[setting];
  (p[profile].settings as Record<string, unknown>)[setting] = [value === undefined ? old : value, citation ?? oldCitation];
};
const problemsOf = (p: Profiles, profile: string, setting: string) =>
  checkCitations(p)
    .filter((x) => x.profile === profile && x.setting === setting)
    .map((x) => x.problem);

describe('profile citations', () => {
  it('cite every setting of every profile, each agreeing with its source', () => {
    expect(checkCitations(LOOP_PROFILES)).toEqual([]);
    for (const name of LOOP_PROFILE_NAMES)
      expect(Object.keys(LOOP_PROFILES[name].settings).sort()).toEqual(Object.keys(SETTING_ROWS).sort());
  });

  it('fail a setting without a citation', () => {
    const p = copy();
    (p.corvid.settings as Record<string, unknown>).maxNudges = [2];
    delete (p.dexto.settings as Record<string, unknown>).prune;
    expect(problemsOf(p, 'corvid', 'maxNudges')).toEqual(['has no citation']);
    expect(problemsOf(p, 'dexto', 'prune')).toEqual(['has no citation']);
  });

  it('fail a value that differs from the figure its source states', () => {
    const p = copy();
    set(p, 'corvid', 'maxToolIterations', 30);
    set(p, 'gemini-cli', 'graceTurnMs', 30_000);
    set(p, 'mcp-agent', 'trimKeepRecent', 50);
    expect(problemsOf(p, 'corvid', 'maxToolIterations')).toEqual(['direct-process.spec.md invariant 2 states 25, but the setting is 30']);
    expect(problemsOf(p, 'gemini-cli', 'graceTurnMs')).toEqual([
      'context-management-plan.md Gemini-CLI Approach states 60s, but the setting is 30000',
    ]);
    expect(problemsOf(p, 'mcp-agent', 'trimKeepRecent')).toEqual([
      'mcp-agent-technical-spec.md §2 ConversationRepository states 50 (-2), but the setting is 50',
    ]);
  });

  it("fail a named option whose constant differs from its source's figure", () => {
    const p = copy();
    const c = p['gemini-cli'].settings.tokenEstimator[1] as Extract<Citation, { kind: 'states' }>;
    c.figure = { ...c.figure!, constant: { name: 'GEMINI_NON_ASCII_TOKENS_PER_CHAR', value: 1.5 } };
    expect(problemsOf(p, 'gemini-cli', 'tokenEstimator')).toEqual([
      'context-management-plan.md Gemini-CLI Approach states 1.3, but GEMINI_NON_ASCII_TOKENS_PER_CHAR is 1.5',
    ]);
  });

  it('fail a figure its quote does not contain, and a citation of a file not in the known list', () => {
    const p = copy();
    set(p, 'opencode', 'repeatThreshold', undefined, {
      kind: 'states',
      file: 'stream-processor-deep-dive.md',
      at: 'x',
      quote: 'THRESHOLD = 3',
      figure: { text: '4' },
    });
    set(p, 'dexto', 'toolResultMaxChars', undefined, {
      kind: 'states',
      file: 'dexto-notes.md' as never,
      at: '§1',
      quote: '120,000 chars',
      figure: { text: '120,000' },
    });
    expect(problemsOf(p, 'opencode', 'repeatThreshold')).toEqual([
      'figure "4" is not in its quote',
      'stream-processor-deep-dive.md x states 4, but the setting is 3',
    ]);
    expect(problemsOf(p, 'dexto', 'toolResultMaxChars')).toEqual(['cites "dexto-notes.md", which is not a known source']);
    p.loupe.specs = ['nowhere.md' as never];
    expect(checkCitations(p).filter((x) => x.setting === '-')).toEqual([
      { profile: 'loupe', setting: '-', problem: 'follows "nowhere.md", which is not a known source' },
    ]);
  });

  it('fail a departure that is not off in the profile of the system it departs from, or not its own named value', () => {
    const p = copy();
    set(p, 'corvid', 'tokenEstimator', 'content_aware');
    expect(problemsOf(p, 'loupe', 'tokenEstimator')).toEqual(['departs from corvid, whose value is the same ("content_aware")']);
    const q = copy();
    const d = q.loupe.settings.prune[1] as Extract<Citation, { kind: 'departure' }>;
    d.name = 'scaled budgets';
    expect(problemsOf(q, 'loupe', 'prune')).toEqual(['a departure named "scaled budgets" must be its own option value ("scaled")']);
  });

  it("fail 'silent' settings that are not off or not the profile they follow, and 'unused' ones that are read", () => {
    const p = copy();
    set(p, 'corvid', 'cycleRepetitions', 4);
    set(p, 'corvid', 'queueInjection', 'one');
    set(p, 'dexto', 'repeatThreshold', 3, { kind: 'states', file: 'loop-control-prior-art.md', at: '§3', quote: 'none' });
    set(p, 'opencode', 'maxToolIterations', 50);
    expect(problemsOf(p, 'corvid', 'cycleRepetitions')).toEqual(['silent, so off, but the setting is 4']);
    expect(problemsOf(p, 'corvid', 'cycleMaxPeriod')).toEqual(['unused while cycleRepetitions is 0, but it is 4']);
    expect(problemsOf(p, 'corvid', 'queueInjection')).toEqual([`silent, as loupe, but loupe's is "all" and this is "one"`]);
    expect(problemsOf(p, 'dexto', 'callKey')).toEqual(['unused while repeatThreshold is 0, but it is 3']);
    expect(problemsOf(p, 'opencode', 'maxToolIterations')).toEqual([
      `a harness bound as gemini-cli, but gemini-cli's is 100 and this is 50`,
    ]);
  });

  it("names Loupe's departures, each off in the profile of the system it departs from", () => {
    const departures = Object.entries(LOOP_PROFILES.loupe.settings)
      .filter(([, [, c]]) => c.kind === 'departure')
      .map(([setting, [value, c]]) => {
        const d = c as Extract<Citation, { kind: 'departure' }>;
        return [setting, d.from, d.name, value, LOOP_PROFILES[d.from].settings[setting as SettingName][0]];
      });
    expect(departures).toEqual([
      ['repeatCheck', 'corvid', 'after_run', 'after_run', 'before_run'],
      ['cycleRepetitions', 'corvid', 'cycle detector, 3 repetitions', 3, 0],
      ['errorRepeatThreshold', 'corvid', 'repeated-error detector, 3', 3, 0],
      ['hallucinationGuard', 'corvid', 'all_replies', 'all_replies', 'replies_without_calls'],
      ['queueInjection', 'dexto', 'all', 'all', 'one'],
      ['tokenEstimator', 'corvid', 'content_aware', 'content_aware', 'corvid'],
      ['toolResultCharsPerToken', 'corvid', 'code chars per token (3)', 3, 4],
      ['prune', 'dexto', 'scaled', 'scaled', 'fixed'],
      ['pruneAfter', 'dexto', 'each_request', 'each_request', 'tool_step'],
      ['pruneCompletedOnly', 'dexto', 'failed output pruned too', false, true],
      ['outputReserve', 'dexto', 'window_quarter', 'window_quarter', 'max_output'],
      ['compactionValidation', 'dexto', 'reject_empty_or_inflated', 'reject_empty_or_inflated', 'none'],
      ['compactionBaseline', 'gemini-cli', 'replaced_estimate', 'replaced_estimate', 'last_prompt'],
      ['preflight', 'corvid', 'record', 'record', 'off'],
      ['providerOverflowRetries', 'corvid', 'two recoveries per call', 2, 1],
      ['retrySchedule', 'corvid', 'loupe', 'loupe', 'corvid'],
    ]);
    // only Loupe departs; a system's own profile follows its sources
    for (const name of LOOP_PROFILE_NAMES.filter((n) => n !== 'loupe'))
      expect(Object.values(LOOP_PROFILES[name].settings).filter(([, c]) => c.kind === 'departure')).toEqual([]);
  });

  it('reads figures as their sources write them', () => {
    expect(['25', '40_000', '120,000', '50k', '30%', '0.9', '60s', '30 s', 'once', '["skill"]', 'doom_loop'].map(parseFigure)).toEqual([
      25,
      40_000,
      120_000,
      50_000,
      0.3,
      0.9,
      60_000,
      30_000,
      1,
      ['skill'],
      'doom_loop',
    ]);
    expect([0, false, 'off', 'none', 'fail', []].every(isOff)).toBe(true);
    expect([3, true, 'break', ['skill']].some(isOff)).toBe(false);
  });

  it('finds each quote in its source, markdown and line breaks aside, and names the ones it does not', () => {
    const docs: Record<string, string> = {
      'direct-process.spec.md': '2. **Max 25 tool iterations**: The agentic loop runs at most `MAX_TOOL_ITERATIONS`\n(25) turns.',
    };
    const one: Profiles = { corvid: structuredClone(LOOP_PROFILES.corvid) as unknown as LoopProfile };
    const reader = (file: string) => docs[file];
    const { checked, problems } = checkQuotes(one, reader);
    const found = (setting: string) => !problems.some((x) => x.setting === setting);
    expect(found('maxToolIterations')).toBe(true);
    expect(checked).toBeGreaterThan(20);
    expect(problems.find((x) => x.setting === 'maxNudges')).toEqual(
      expect.objectContaining({ file: 'direct-process.spec.md', problem: 'not in direct-process.spec.md (invariant 7)' }),
    );
    expect(problems.find((x) => x.setting === 'retrySchedule')).toEqual(
      expect.objectContaining({ file: 'ollama-provider.spec.md', problem: 'source not found' }),
    );
    expect(normalizeText('a  **b** `c`\n d')).toBe('a b c d');
  });

  it('know each cited file by the folder of the shared docs it lives in', () => {
    expect(Object.values(SOURCE_FILES).every((dir) => dir === 'specs' || dir === 'reference')).toBe(true);
  });
});
