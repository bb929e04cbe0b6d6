import { drawRunSeed, MAX_SEED, parseRunSeed, trialSeed } from './trial-seed';

const cell = { scenarioId: 'approval/ask', model: 'qwen3:8b', configKey: 'temperature=0.2', trial: 0 };

describe('trial seeds', () => {
  it('are stable: the same run seed, cell and trial give the same seed, across processes and releases', () => {
    expect(trialSeed(42, cell)).toBe(trialSeed(42, { ...cell }));
    // pinned: a change to the derivation would change the seeds every recorded run's trials sent
    expect(trialSeed(42, { scenarioId: 'a', model: 'm', configKey: '', trial: 0 })).toBe(2136181621);
  });

  it('differ with each part of the cell, the trial index and the run seed', () => {
    const base = trialSeed(42, cell);
    expect(trialSeed(43, cell)).not.toBe(base);
    expect(trialSeed(42, { ...cell, scenarioId: 'approval/other' })).not.toBe(base);
    expect(trialSeed(42, { ...cell, model: 'llama3.2' })).not.toBe(base);
    expect(trialSeed(42, { ...cell, configKey: '' })).not.toBe(base);
    expect(trialSeed(42, { ...cell, trial: 1 })).not.toBe(base);
    // the parts are kept apart: moving a separator moves the seed
    expect(trialSeed(42, { ...cell, scenarioId: 'a/b', model: 'c' })).not.toBe(trialSeed(42, { ...cell, scenarioId: 'a', model: 'b/c' }));
  });

  it('are non-negative 31-bit integers, spread over the range', () => {
    const seeds = Array.from({ length: 2000 }, (_, trial) => trialSeed(7, { ...cell, trial }));
    for (const s of seeds) {
      expect(Number.isInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(MAX_SEED);
    }
    expect(new Set(seeds).size).toBe(seeds.length);
    // each eighth of the range holds its share (250 expected; far outside 150..350 only if skewed)
    const buckets = new Array(8).fill(0);
    for (const s of seeds) buckets[Math.floor(s / 2 ** 28)]++;
    for (const n of buckets) expect(n).toBeGreaterThan(150);
    for (const n of buckets) expect(n).toBeLessThan(350);
  });

  it('draws run seeds in range', () => {
    for (let i = 0; i < 100; i++) {
      const s = drawRunSeed();
      expect(Number.isInteger(s) && s >= 0 && s <= MAX_SEED).toBe(true);
    }
  });

  it('parses a run seed, naming what is wrong with a bad one', () => {
    expect(parseRunSeed('42')).toEqual({ seed: 42 });
    expect(parseRunSeed('0')).toEqual({ seed: 0 });
    expect(parseRunSeed(String(MAX_SEED))).toEqual({ seed: MAX_SEED });
    for (const bad of ['abc', '', '1.5', '-1', '1e3', String(MAX_SEED + 1), '0x10'])
      expect(parseRunSeed(bad)).toEqual({ problem: expect.stringContaining(`got ${JSON.stringify(bad)}`) });
  });
});
