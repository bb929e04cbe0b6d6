import type { StandinModel } from './standin-script';
import {
  DEFAULT_NUM_BATCH,
  expiryAt,
  footprintBytes,
  kvBytesPerToken,
  makeRoom,
  needsReload,
  resolveRunner,
  scaleMs,
  scaleRate,
  type LoadedRunnerView,
} from './standin-runner-rules';

const model = (extra: Partial<StandinModel> = {}): StandinModel => ({
  name: 'm:8b',
  family: 'llama',
  parameterSize: '8.0B',
  capabilities: ['completion'],
  vramBytes: 6_000_000_000,
  contextLength: 32_768,
  ...extra,
});
const defaults = { contextLength: 4096, numBatch: DEFAULT_NUM_BATCH };

describe('resolveRunner', () => {
  it('takes the server defaults for what the request leaves unset', () => {
    expect(resolveRunner(model(), {}, defaults)).toEqual({ numCtx: 4096, numBatch: 512, numGpu: -1 });
    expect(resolveRunner(model(), {}, { contextLength: 8192, numBatch: 512 }).numCtx).toBe(8192);
  });

  it("caps num_ctx at the model's training length, and the default too", () => {
    expect(resolveRunner(model(), { numCtx: 262_144 }, defaults).numCtx).toBe(32_768);
    expect(resolveRunner(model({ contextLength: 2048 }), {}, defaults).numCtx).toBe(2048);
    expect(resolveRunner(model({ contextLength: undefined }), { numCtx: 262_144 }, defaults).numCtx).toBe(262_144);
  });

  it('keeps what the request sets', () => {
    expect(resolveRunner(model(), { numCtx: 2048, numBatch: 1024, numGpu: 0 }, defaults)).toEqual({
      numCtx: 2048,
      numBatch: 1024,
      numGpu: 0,
    });
  });
});

describe('needsReload', () => {
  const loaded = { numCtx: 4096, numBatch: 512, numGpu: -1 };
  it('is false for the same options', () => {
    expect(needsReload(loaded, { ...loaded })).toBe(false);
  });
  it.each([
    ['num_ctx', { numCtx: 2048 }],
    ['num_batch', { numBatch: 1024 }],
    ['num_gpu', { numGpu: 0 }],
  ])('is true when %s differs', (_, change) => {
    expect(needsReload(loaded, { ...loaded, ...change })).toBe(true);
  });
  it('never reloads for a request asking num_gpu auto (-1)', () => {
    expect(needsReload({ ...loaded, numGpu: 20 }, { ...loaded, numGpu: -1 })).toBe(false);
  });
});

describe('footprintBytes', () => {
  it('is vramBytes at the default context, growing by the KV cache per token beyond it', () => {
    const m = model();
    expect(kvBytesPerToken(m)).toBe(131_072); // 8B: 128 KiB a token
    expect(footprintBytes(m, { numCtx: 4096, numBatch: 512, numGpu: -1 })).toBe(6_000_000_000);
    expect(footprintBytes(m, { numCtx: 8192, numBatch: 512, numGpu: -1 })).toBe(6_000_000_000 + 4096 * 131_072);
    expect(footprintBytes(m, { numCtx: 2048, numBatch: 512, numGpu: -1 })).toBe(6_000_000_000 - 2048 * 131_072);
  });
  it('is 0 on the CPU (num_gpu 0, vramBytes 0) and for cloud models', () => {
    const r = { numCtx: 8192, numBatch: 512, numGpu: -1 };
    expect(footprintBytes(model(), { ...r, numGpu: 0 })).toBe(0);
    expect(footprintBytes(model({ vramBytes: 0 }), r)).toBe(0);
    expect(footprintBytes(model({ name: 'x:cloud' }), r)).toBe(0);
  });
});

describe('makeRoom', () => {
  const r = (key: string, lastUsedMs: number, busy = false, vramBytes = 5e9): LoadedRunnerView => ({ key, vramBytes, lastUsedMs, busy });
  it('fits below MAX_LOADED_MODELS when the VRAM holds it', () => {
    expect(makeRoom([r('a', 1), r('b', 2)], 5e9, 3, 24e9)).toEqual({ kind: 'fits' });
  });
  it('evicts the least recently used idle model at MAX_LOADED_MODELS', () => {
    expect(makeRoom([r('a', 3), r('b', 1), r('c', 2)], 1e9, 3, 100e9)).toEqual({ kind: 'evict', key: 'b' });
    expect(makeRoom([r('a', 3), r('b', 1, true), r('c', 2)], 1e9, 3, 100e9)).toEqual({ kind: 'evict', key: 'c' });
  });
  it('evicts when the VRAM would overflow, below the model count', () => {
    expect(makeRoom([r('a', 1, false, 10e9), r('b', 2, false, 10e9)], 5e9, 3, 24e9)).toEqual({ kind: 'evict', key: 'a' });
  });
  it('waits when every loaded model is busy', () => {
    expect(makeRoom([r('a', 1, true), r('b', 2, true)], 1e9, 2, 100e9)).toEqual({ kind: 'wait' });
  });
  it('always loads onto an empty GPU, even a model larger than it', () => {
    expect(makeRoom([], 100e9, 3, 24e9)).toEqual({ kind: 'fits' });
  });
});

describe('keep_alive expiry and the time scale', () => {
  it('expires keep_alive after going idle; null never; 0 at once', () => {
    expect(expiryAt(1000, 300_000, 1)).toBe(301_000);
    expect(expiryAt(1000, null, 1)).toBeNull();
    expect(expiryAt(1000, 0, 1)).toBe(1000);
  });
  it('scales keep_alive, load times and pacing', () => {
    expect(expiryAt(1000, 300_000, 0.001)).toBe(1300);
    expect(scaleMs(2000, 0.01)).toBe(20);
    expect(scaleMs(-5, 1)).toBe(0);
    expect(scaleRate(50, 0.1)).toBe(500);
    expect(scaleRate(50, 0)).toBeUndefined();
    expect(scaleRate(undefined, 0.1)).toBeUndefined();
  });
});
