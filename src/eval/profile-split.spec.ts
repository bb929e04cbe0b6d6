import { outcomesUnderProfile, withoutProfile } from './profile-split';
import type { TrialOutcome } from './statistics/statistics-types';

const outcome = (configKey: string, status: TrialOutcome['status']): TrialOutcome => ({
  scenarioId: 's',
  model: 'm',
  configKey,
  trial: 1,
  status,
  terminationReason: null,
  pathologies: {},
  tokens: { input: 0, output: 0 },
  latency: { slotWaitMs: 0, loadMs: 0, serverQueueMs: 0, prefillMs: 0, decodeMs: 0, firstTokenMs: null, workingMs: 0 },
  iterations: 1,
});

describe('profile split', () => {
  it('takes the profile out of a configuration key and keeps the rest in order', () => {
    expect(withoutProfile('profile=corvid')).toBe('');
    expect(withoutProfile('profile=corvid,num_ctx=4096')).toBe('num_ctx=4096');
    expect(withoutProfile('num_ctx=4096,profile=loupe,temperature=0')).toBe('num_ctx=4096,temperature=0');
    expect(withoutProfile('')).toBe('');
  });

  it("keeps only the profile's trials, keyed so that both profiles' cells match", () => {
    const trials = [
      { profile: 'loupe', outcome: outcome('profile=loupe', 'passed') },
      { profile: 'corvid', outcome: outcome('profile=corvid', 'failed') },
      { profile: null, outcome: outcome('', 'passed') },
    ];
    const a = outcomesUnderProfile(trials, 'loupe');
    const b = outcomesUnderProfile(trials, 'corvid');
    expect(a.map((o) => [o.configKey, o.status])).toEqual([['', 'passed']]);
    expect(b.map((o) => [o.configKey, o.status])).toEqual([['', 'failed']]);
  });
});
