import { GB, detectGpu, maxWeightForVram, resolveMaxWeight, shouldDetectGpu } from './gpu-tier';
import type { GpuDetection } from './gpu-tier';

describe('maxWeightForVram', () => {
  it.each([
    [0, null],
    [-1, null],
    [Number.NaN, null],
    [1, 3],
    [8 * GB, 3],
    [10 * GB - 1, 3],
    [10 * GB, 5],
    [24 * GB, 5],
    [40 * GB, 5],
    [40 * GB + 1, 8],
    [80 * GB, 8],
  ])('%p bytes → %p', (bytes, weight) => {
    expect(maxWeightForVram(bytes)).toBe(weight);
  });
});

describe('detectGpu', () => {
  it.each<{
    name: string;
    models: Array<{ name: string; size: number; size_vram?: number | null }>;
    capacity?: number;
    expected: GpuDetection;
  }>([
    {
      name: 'reports no GPU when nothing is loaded',
      models: [],
      expected: { gpuDetected: false, totalVramBytes: 0, maxWeight: null, partialOffload: [], vramIsLowerBound: false },
    },
    {
      name: 'reports no GPU when every model runs on CPU, listing them as offloaded',
      models: [{ name: 'qwen3:8b', size: 6 * GB, size_vram: 0 }],
      expected: { gpuDetected: false, totalVramBytes: 0, maxWeight: null, partialOffload: ['qwen3:8b'], vramIsLowerBound: false },
    },
    {
      name: 'sums VRAM over loaded models and marks it a lower bound',
      models: [
        { name: 'qwen3:8b', size: 6 * GB, size_vram: 6 * GB },
        { name: 'llama3.2:3b', size: 3 * GB, size_vram: 3 * GB },
        { name: 'gemma3:4b', size: 4 * GB, size_vram: 4 * GB },
      ],
      expected: { gpuDetected: true, totalVramBytes: 13 * GB, maxWeight: 5, partialOffload: [], vramIsLowerBound: true },
    },
    {
      name: 'flags models under half on the GPU; a full card makes the sum a real estimate',
      models: [
        { name: 'llama3.3:70b', size: 42 * GB, size_vram: 20 * GB },
        { name: 'qwen3:8b', size: 6 * GB, size_vram: 3 * GB },
      ],
      expected: { gpuDetected: true, totalVramBytes: 23 * GB, maxWeight: 5, partialOffload: ['llama3.3:70b'], vramIsLowerBound: false },
    },
    {
      name: 'prefers a configured card capacity over loaded-model VRAM',
      models: [{ name: 'llama3.2:3b', size: 3 * GB, size_vram: 3 * GB }],
      capacity: 80 * GB,
      expected: { gpuDetected: true, totalVramBytes: 80 * GB, maxWeight: 8, partialOffload: [], vramIsLowerBound: false },
    },
    {
      name: 'treats a missing size_vram as CPU',
      models: [{ name: 'old-server', size: 2 * GB, size_vram: null }],
      expected: { gpuDetected: false, totalVramBytes: 0, maxWeight: null, partialOffload: ['old-server'], vramIsLowerBound: false },
    },
  ])('$name', ({ models, capacity, expected }) => {
    expect(detectGpu(models, { vramCapacityBytes: capacity })).toEqual(expected);
  });
});

const detected = (maxWeight: number | null): GpuDetection => ({
  gpuDetected: maxWeight !== null,
  totalVramBytes: 0,
  maxWeight,
  partialOffload: [],
  vramIsLowerBound: false,
});

describe('shouldDetectGpu', () => {
  it.each([
    [{}, true],
    [{ maxParallel: null, numGpu: -1 }, true],
    [{ maxParallel: 4 }, false],
    [{ numGpu: 0 }, false],
    [{ maxParallel: 0 }, true],
  ])('%p → %p', (config, expected) => {
    expect(shouldDetectGpu(config)).toBe(expected);
  });
});

describe('resolveMaxWeight', () => {
  it.each([
    {
      name: 'OLLAMA_MAX_PARALLEL wins over detection',
      config: { maxParallel: 4 },
      detection: detected(8),
      current: 1,
      expected: { maxWeight: 4, source: 'config' },
    },
    {
      name: 'floors a fractional OLLAMA_MAX_PARALLEL',
      config: { maxParallel: 2.7 },
      detection: null,
      current: 1,
      expected: { maxWeight: 2, source: 'config' },
    },
    {
      name: 'ignores an invalid OLLAMA_MAX_PARALLEL',
      config: { maxParallel: 0 },
      detection: detected(3),
      current: 1,
      expected: { maxWeight: 3, source: 'gpu' },
    },
    { name: 'upgrades to the detected tier', config: {}, detection: detected(5), current: 1, expected: { maxWeight: 5, source: 'gpu' } },
    {
      name: 'stays serial without a GPU',
      config: {},
      detection: detected(null),
      current: 1,
      expected: { maxWeight: 1, source: 'default' },
    },
    { name: 'stays serial before any probe', config: {}, detection: undefined, current: 1, expected: { maxWeight: 1, source: 'default' } },
    {
      name: 'never lowers the limit on a later, emptier probe',
      config: {},
      detection: detected(3),
      current: 5,
      expected: { maxWeight: 5, source: 'gpu' },
    },
    {
      name: 'ignores detection in forced CPU mode',
      config: { numGpu: 0 },
      detection: detected(8),
      current: 1,
      expected: { maxWeight: 1, source: 'default' },
    },
  ])('$name', ({ config, detection, current, expected }) => {
    expect(resolveMaxWeight(config, detection, current)).toEqual(expected);
  });
});
