import { outcomesUnder } from './select-configuration';
import type { TrialOutcome } from './statistics-types';

const o = (configKey: string, trial = 1): TrialOutcome => ({
  scenarioId: 's',
  model: 'm',
  configKey,
  trial,
  status: 'passed',
  terminationReason: 'completed',
  pathologies: {},
  tokens: { input: 0, output: 0 },
  latency: { slotWaitMs: 0, loadMs: 0, serverQueueMs: 0, prefillMs: 0, decodeMs: 0, firstTokenMs: null, workingMs: 0 },
  iterations: 1,
});

describe('outcomesUnder', () => {
  const all = [o('profile=corvid'), o('profile=opencode'), o('profile=corvid,max_tool_iterations=10'), o('max_tool_iterations=10')];

  it('selects a profile and drops it from the key, so the other axes still pair', () => {
    expect(outcomesUnder(all, { profile: 'corvid' }).map((x) => x.configKey)).toEqual(['', 'max_tool_iterations=10']);
    expect(outcomesUnder(all, { profile: 'opencode' }).map((x) => x.configKey)).toEqual(['']);
  });

  it('selects an exact configuration', () => {
    expect(outcomesUnder(all, { configKey: 'max_tool_iterations=10' })).toEqual([{ ...all[3], configKey: '' }]);
    expect(outcomesUnder(all, { configKey: 'profile=dexto' })).toEqual([]);
  });
});
