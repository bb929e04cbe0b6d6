import { cell, outcome } from './outcomes.test-kit';
import {
  measuredReloads,
  median,
  summarize,
  summarizeAll,
  summarizeByCell,
  summarizeByConfig,
  summarizeByModel,
  summarizeRun,
} from './summarize';

describe('summarize', () => {
  it('counts trials by status and leaves errored trials out of the pass rate', () => {
    const s = summarize(cell('s', 'm', '', 'PPEPFE'));
    expect(s).toMatchObject({ trials: 6, passed: 3, failed: 1, errored: 2 });
    // Wilson 95% of 3/4, from (p + z²/2n ± z√(p(1−p)/n + z²/4n²)) / (1 + z²/n) with z = 1.96
    expect(s.passRate).toEqual({ successes: 3, n: 4, rate: 0.75, lo: expect.closeTo(0.300642, 5), hi: expect.closeTo(0.954413, 5) });
  });

  // Cells (hand-computed per cell, then averaged over cells with ≥ k judged trials):
  //   a|m|  PPF  n=3 c=2: pass^1 2/3, pass^2 C(2,2)/C(3,2) = 1/3, pass^3 0;   pass@2 1, pass@3 1
  //   b|m|  PPP  n=3 c=3: pass^k 1 for all k;                                  pass@k 1
  //   c|m|  PFE  n=2 c=1: pass^1 1/2, pass^2 0, (too few for k = 3);           pass@2 1
  //   d|m|  FF   n=2 c=0: pass^1 0,   pass^2 0;                                 pass@1 0, pass@2 0
  const trials = [...cell('a', 'm', '', 'PPF'), ...cell('b', 'm', '', 'PPP'), ...cell('c', 'm', '', 'PFE'), ...cell('d', 'm', '', 'FF')];
  it.each([
    ['1', (2 / 3 + 1 + 1 / 2 + 0) / 4, (2 / 3 + 1 + 1 / 2 + 0) / 4],
    ['2', (1 / 3 + 1 + 0 + 0) / 4, (1 + 1 + 1 + 0) / 4],
    ['3', (0 + 1) / 2, (1 + 1) / 2],
    ['5', null, null],
  ])('averages pass^%s and pass@k over the cells with enough judged trials', (k, hat, at) => {
    const s = summarize(trials, { ks: [1, 2, 3, 5] });
    if (hat === null) {
      expect(s.passHatK[k]).toBeNull();
      expect(s.passAtK[k]).toBeNull();
    } else {
      expect(s.passHatK[k]).toBeCloseTo(hat, 12);
      expect(s.passAtK[k]).toBeCloseTo(at!, 12);
    }
  });

  it('treats the same scenario under two models or configurations as separate cells, not one pool', () => {
    // pooled, 3 of 6 would give pass^3 = C(3,3)/C(6,3) = 1/20; per cell it is (1 + 0) / 2
    const s = summarize([...cell('s', 'm1', '', 'PPP'), ...cell('s', 'm2', '', 'FFF')], { ks: [3] });
    expect(s.passHatK['3']).toBeCloseTo(0.5, 12);
    const c = summarize([...cell('s', 'm', 'temperature=0', 'PPP'), ...cell('s', 'm', 'temperature=1', 'FFF')], { ks: [3] });
    expect(c.passHatK['3']).toBeCloseTo(0.5, 12);
  });

  it('defaults to k = 1, 3 and 5', () => {
    expect(Object.keys(summarize(trials).passHatK)).toEqual(['1', '3', '5']);
  });

  it.each([[[0]], [[1.5]], [[-2]]])('rejects k %p', (ks) => {
    expect(() => summarize(trials, { ks })).toThrow(RangeError);
  });

  it('reports each pathology as the share of judged trials with at least one event, with the event count', () => {
    const s = summarize([
      outcome({ trial: 1, pathologies: { repeat_break: 2, 'nudge.tooShort': 1 } }),
      outcome({ trial: 2, status: 'failed', pathologies: { repeat_break: 1, context_overflow: 0 } }),
      outcome({ trial: 3, pathologies: {} }),
      outcome({ trial: 4, status: 'failed', pathologies: { max_iterations: 1 } }),
      outcome({ trial: 5, pathologies: {} }),
      // infrastructure error: its events are not the model's doing
      outcome({ trial: 6, status: 'error', pathologies: { repeat_break: 5, invariant_violation: 1 } }),
    ]);
    // order follows the pathology list (loop breaks, then nudges), zero counts are absent
    expect(Object.keys(s.pathologies)).toEqual(['repeat_break', 'max_iterations', 'nudge.tooShort']);
    // Wilson 95% of 2/5 and 1/5 (same formula as above)
    expect(s.pathologies.repeat_break).toEqual({
      successes: 2,
      n: 5,
      rate: 0.4,
      lo: expect.closeTo(0.117621, 5),
      hi: expect.closeTo(0.769276, 5),
      events: 3,
    });
    expect(s.pathologies.max_iterations).toMatchObject({
      successes: 1,
      n: 5,
      rate: 0.2,
      lo: expect.closeTo(0.036224, 5),
      hi: expect.closeTo(0.624465, 5),
      events: 1,
    });
    expect(s.pathologies['nudge.tooShort']).toMatchObject({ successes: 1, events: 1 });
  });

  it('averages tokens and iterations over judged trials but totals tokens over every trial', () => {
    const s = summarize([
      outcome({ tokens: { input: 100, output: 20 }, iterations: 2 }),
      outcome({ status: 'failed', tokens: { input: 300, output: 40 }, iterations: 6 }),
      outcome({ status: 'error', tokens: { input: 7, output: 0 }, iterations: 0 }),
    ]);
    expect(s.tokens).toEqual({ meanInput: 200, meanOutput: 30, totalInput: 407, totalOutput: 60 });
    expect(s.meanIterations).toBe(4);
  });

  it('takes the median of each latency field over judged trials, skipping missing first-token times', () => {
    const lat = (workingMs: number, firstTokenMs: number | null, slotWaitMs = 0) => ({
      slotWaitMs,
      loadMs: 0,
      serverQueueMs: 0,
      prefillMs: 0,
      decodeMs: 0,
      firstTokenMs,
      workingMs,
    });
    const s = summarize([
      outcome({ latency: lat(500, 40, 10) }),
      outcome({ latency: lat(100, null, 30) }),
      outcome({ status: 'failed', latency: lat(900, 60, 20) }),
      outcome({ latency: lat(300, 10, 40) }),
      outcome({ status: 'error', latency: lat(99999, 99999, 99999) }),
    ]);
    expect(s.latency.workingMs).toBe(400); // (300 + 500) / 2
    expect(s.latency.firstTokenMs).toBe(40); // of 10, 40, 60
    expect(s.latency.slotWaitMs).toBe(25); // (20 + 30) / 2
    expect(s.latency.loadMs).toBe(0);
  });

  it('counts termination reasons over every trial, sorted, with null as none', () => {
    const s = summarize([
      outcome({ terminationReason: 'max_iterations' }),
      outcome({ terminationReason: 'final_answer' }),
      outcome({ status: 'error', terminationReason: null }),
      outcome({ terminationReason: 'final_answer' }),
    ]);
    expect(Object.entries(s.terminations)).toEqual([
      ['final_answer', 2],
      ['max_iterations', 1],
      ['none', 1],
    ]);
  });

  it('summarizes nothing as zeros and nulls', () => {
    expect(summarize([], { ks: [1] })).toEqual({
      trials: 0,
      passed: 0,
      failed: 0,
      unjudged: 0,
      errored: 0,
      passRate: { successes: 0, n: 0, rate: null, lo: null, hi: null },
      passHatK: { '1': null },
      passAtK: { '1': null },
      passHatKDetail: { '1': { value: null, cells: 0, cellsTooFew: 0, lo: null, hi: null } },
      passAtKDetail: { '1': { value: null, cells: 0, cellsTooFew: 0, lo: null, hi: null } },
      pathologies: {},
      tokens: { meanInput: null, meanOutput: null, totalInput: 0, totalOutput: 0 },
      latency: {
        slotWaitMs: null,
        loadMs: null,
        serverQueueMs: null,
        prefillMs: null,
        decodeMs: null,
        firstTokenMs: null,
        workingMs: null,
      },
      terminations: {},
      meanIterations: null,
    });
  });

  it('summarizes a run of only errors with no rates', () => {
    const s = summarize(cell('s', 'm', '', 'EE'), { ks: [1] });
    expect(s.passRate.rate).toBeNull();
    expect(s.passHatK['1']).toBeNull();
    expect(s.passHatKDetail['1']).toMatchObject({ cells: 0, cellsTooFew: 1 });
    expect(s.meanIterations).toBeNull();
    expect(s.errored).toBe(2);
  });
});

describe('median', () => {
  it.each([
    [[], null],
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[10, 10, 1, 1000], 10],
  ])('of %p is %p', (xs, m) => {
    expect(median(xs)).toBe(m);
  });
});

describe('grouped summaries', () => {
  // deliberately out of order: the groups must come back sorted whatever order trials finished in
  const trials = [
    ...cell('b', 'qwen3:8b', 'temperature=0', 'PF'),
    ...cell('a', 'qwen3:8b', '', 'PP'),
    ...cell('b', 'llama3.1:8b', '', 'FF'),
    ...cell('a', 'llama3.1:8b', 'temperature=0', 'PE'),
    ...cell('a', 'qwen3:8b', 'temperature=0', 'F'),
  ];

  it('gives one summary per cell, sorted by scenario, model, configuration', () => {
    const cells = summarizeByCell(trials, { ks: [1] });
    expect(cells.map((c) => [c.key, c.scenarioId, c.model, c.configKey, c.summary.passed, c.summary.trials])).toEqual([
      ['a|llama3.1:8b|temperature=0', 'a', 'llama3.1:8b', 'temperature=0', 1, 2],
      ['a|qwen3:8b|', 'a', 'qwen3:8b', '', 2, 2],
      ['a|qwen3:8b|temperature=0', 'a', 'qwen3:8b', 'temperature=0', 0, 1],
      ['b|llama3.1:8b|', 'b', 'llama3.1:8b', '', 0, 2],
      ['b|qwen3:8b|temperature=0', 'b', 'qwen3:8b', 'temperature=0', 1, 2],
    ]);
  });

  it('gives one summary per model and per configuration, sorted, with pass^k averaged over their cells', () => {
    const models = summarizeByModel(trials, { ks: [1] });
    expect(models.map((m) => [m.key, m.summary.passed, m.summary.failed, m.summary.errored])).toEqual([
      ['llama3.1:8b', 1, 2, 1],
      ['qwen3:8b', 3, 2, 0],
    ]);
    // qwen3 cells: a|'' 2/2, a|t=0 0/1, b|t=0 1/2 → (1 + 0 + 0.5) / 3 (pooled would be 3/5)
    expect(models[1].summary.passHatK['1']).toBeCloseTo(1.5 / 3, 12);
    const configs = summarizeByConfig(trials, { ks: [1] });
    expect(configs.map((c) => [c.key, c.summary.trials])).toEqual([
      ['', 4],
      ['temperature=0', 5],
    ]);
  });

  it('summarizes the whole run under the key run, and every level at once', () => {
    expect(summarizeRun(trials).key).toBe('run');
    const all = summarizeAll(trials, { ks: [1] });
    expect(all.run).toEqual(summarizeRun(trials, { ks: [1] }).summary);
    expect(all.run).toMatchObject({ trials: 9, passed: 4, failed: 4, errored: 1 });
    expect(all.cells).toHaveLength(5);
    expect(all.models.map((m) => m.key)).toEqual(['llama3.1:8b', 'qwen3:8b']);
    expect(all.configs.map((c) => c.key)).toEqual(['', 'temperature=0']);
  });
});

describe('reloads inside measured turns', () => {
  it("are the run's model_reloaded events, 0 when none was recorded", () => {
    const trials = [
      outcome({ trial: 1, status: 'passed', pathologies: { model_reloaded: 2 } }),
      outcome({ trial: 2, status: 'failed', pathologies: { model_reloaded: 1, repeat_break: 1 } }),
      outcome({ trial: 3, status: 'passed' }),
    ];
    const s = summarize(trials);
    expect(measuredReloads(s)).toBe(3);
    expect(s.pathologies.model_reloaded).toEqual(expect.objectContaining({ successes: 2, n: 3, events: 3 }));
    expect(measuredReloads(summarize([outcome({ status: 'passed' })]))).toBe(0);
  });
});
