import { reloadCause, replyLoadedModel, type ReloadCauseInput } from './reload-detection';
import { runnerKey, runnerOptionsFor, sameRunner, wireRunnerOptions } from './runner-options';

describe('replyLoadedModel', () => {
  it.each([
    { name: 'no load_duration', loadMs: undefined, thresholdMs: 1000, expected: false },
    { name: 'a warm reply (a few ms)', loadMs: 4, thresholdMs: 1000, expected: false },
    { name: "0.32.x's warm metadata read (0.7 s)", loadMs: 700, thresholdMs: 1000, expected: false },
    { name: 'a runner start (3 s)', loadMs: 2940, thresholdMs: 1000, expected: true },
    { name: 'exactly the threshold', loadMs: 1000, thresholdMs: 1000, expected: true },
    { name: 'above the threshold but within 3× a slow warm figure', loadMs: 1500, thresholdMs: 1000, warmBaselineMs: 800, expected: false },
    { name: 'well above a slow warm figure', loadMs: 3000, thresholdMs: 1000, warmBaselineMs: 800, expected: true },
    { name: 'a fast warm figure does not lower the threshold', loadMs: 500, thresholdMs: 1000, warmBaselineMs: 2, expected: false },
  ])('$name → $expected', ({ loadMs, thresholdMs, warmBaselineMs, expected }) => {
    expect(replyLoadedModel({ loadMs, thresholdMs, warmBaselineMs })).toBe(expected);
  });
});

describe('reloadCause', () => {
  const base: ReloadCauseInput = {
    previous: { numCtx: 8192 },
    next: { numCtx: 8192 },
    idleMs: 1000,
    keepAliveMs: 1_800_000,
    otherModelLoadedSince: false,
  };
  it.each([
    { name: 'Loupe sent another num_ctx', input: { next: { numCtx: 4096 } }, expected: 'options_changed' },
    { name: 'Loupe sent num_batch where it had not', input: { next: { numCtx: 8192, numBatch: 512 } }, expected: 'options_changed' },
    { name: 'options change wins over a long idle', input: { next: { numCtx: 4096 }, idleMs: 10_000_000 }, expected: 'options_changed' },
    { name: 'idle longer than the keep_alive sent', input: { idleMs: 1_800_000 }, expected: 'keep_alive_expired' },
    { name: 'idle shorter than the keep_alive', input: { idleMs: 1_799_999 }, expected: 'unknown' },
    { name: 'keep_alive forever never expires', input: { idleMs: 10_000_000, keepAliveMs: null }, expected: 'unknown' },
    { name: 'requests in flight: no idle time', input: { idleMs: null, keepAliveMs: 0 }, expected: 'unknown' },
    { name: 'another model loaded since', input: { otherModelLoadedSince: true }, expected: 'evicted' },
    { name: 'expiry is told before eviction', input: { otherModelLoadedSince: true, idleMs: 2_000_000 }, expected: 'keep_alive_expired' },
    { name: 'nothing Loupe knows of', input: {}, expected: 'unknown' },
  ] as const)('$name → $expected', ({ input, expected }) => {
    expect(reloadCause({ ...base, ...input })).toBe(expected);
  });
});

describe('runner options', () => {
  it.each([
    { name: 'num_ctx only by default', input: { numCtx: 8192, cloud: false }, wire: { num_ctx: 8192 } },
    {
      name: 'num_batch and num_gpu when configured',
      input: { numCtx: 4096, numBatch: 1024, numGpu: -1, cloud: false },
      wire: { num_ctx: 4096, num_batch: 1024, num_gpu: -1 },
    },
    { name: 'num_gpu 0 (CPU) is sent', input: { numCtx: 4096, numGpu: 0, cloud: false }, wire: { num_ctx: 4096, num_gpu: 0 } },
    { name: 'cloud models get num_ctx only', input: { numCtx: 4096, numBatch: 1024, numGpu: -1, cloud: true }, wire: { num_ctx: 4096 } },
    { name: 'nothing when nothing is set', input: { cloud: false }, wire: {} },
  ])('$name', ({ input, wire }) => {
    expect(wireRunnerOptions(runnerOptionsFor(input))).toEqual(wire);
  });

  it('tells runners apart by every option, unset differing from a value', () => {
    expect(sameRunner({ numCtx: 8192 }, { numCtx: 8192 })).toBe(true);
    expect(sameRunner({ numCtx: 8192 }, { numCtx: 8192, numBatch: 512 })).toBe(false);
    expect(sameRunner({ numGpu: 0 }, {})).toBe(false);
    expect(runnerKey({ numCtx: 1, numBatch: 2, numGpu: 3 })).not.toBe(runnerKey({ numCtx: 1, numBatch: 3, numGpu: 2 }));
  });
});
