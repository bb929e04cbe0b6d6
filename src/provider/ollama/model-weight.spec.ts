import {
  cloudModelWeight,
  localWeightForBillions,
  modelWeight,
  parameterSizeFromModelName,
  parseParameterSize,
  resolveModelWeight,
} from './model-weight';

describe('parseParameterSize', () => {
  it.each([
    ['8.2B', 8.2],
    ['70B', 70],
    ['567M', 0.567],
    ['270m', 0.27],
    ['1.5T', 1500],
    ['8x7B', 56],
    [' 14.8 B ', 14.8],
    ['350K', 0.00035],
    ['8030261248', 8.030261248],
    [8030261248, 8.030261248],
    ['8', undefined],
    [8, undefined],
    ['0B', undefined],
    ['', undefined],
    ['unknown', undefined],
    ['8.2GB', undefined],
    [null, undefined],
    [undefined, undefined],
    [Number.NaN, undefined],
  ])('%p → %p billions', (value, billions) => {
    expect(parseParameterSize(value)).toBe(billions);
  });
});

describe('parameterSizeFromModelName', () => {
  it.each([
    ['qwen3:14b', 14],
    ['qwen2.5:0.5b', 0.5],
    ['llama3.1:8b-instruct-q4_K_M', 8],
    ['gemma3:270m', 0.27],
    ['mixtral:8x22b', 176],
    ['qwen3:30b-a3b', 30],
    ['gemma3n:e4b', 4],
    ['kimi-k2:1t-cloud', 1000],
    ['hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M', 3],
    ['mistral:7b-instruct-v0.3-q4_0', 7],
    ['llama3.2', undefined],
    ['llama3.2:latest', undefined],
    ['qwen3:fp16', undefined],
    ['granite4:tiny-h', undefined],
  ])('%p → %p billions', (model, billions) => {
    expect(parameterSizeFromModelName(model)).toBe(billions);
  });
});

describe('localWeightForBillions', () => {
  it.each([
    [undefined, 1],
    [0.5, 1],
    [7.6, 1],
    [7.99, 1],
    [8, 2],
    [8.2, 2],
    [13.9, 2],
    [14, 3],
    [70, 3],
  ])('%p B → weight %p', (billions, weight) => {
    expect(localWeightForBillions(billions)).toBe(weight);
  });
});

describe('cloudModelWeight', () => {
  it.each([
    [1, 2],
    [3, 2],
    [4, 2],
    [5, 3],
    [8, 4],
  ])('maxWeight %p → %p', (maxWeight, weight) => {
    expect(cloudModelWeight(maxWeight)).toBe(weight);
  });
});

describe('resolveModelWeight', () => {
  it.each([
    {
      name: 'uses details.parameter_size first',
      model: 'qwen3:8b',
      parameterSize: '8.2B',
      expected: { weight: 2, parameterBillions: 8.2, source: 'details' },
    },
    {
      name: 'weighs a 14B+ model 3',
      model: 'qwen3:14b',
      parameterSize: '14.8B',
      expected: { weight: 3, parameterBillions: 14.8, source: 'details' },
    },
    {
      name: 'weighs a small model 1',
      model: 'llama3.2:3b',
      parameterSize: '3.2B',
      expected: { weight: 1, parameterBillions: 3.2, source: 'details' },
    },
    {
      name: 'falls back to the name when details are missing',
      model: 'qwen3:14b',
      parameterSize: undefined,
      expected: { weight: 3, parameterBillions: 14, source: 'name' },
    },
    {
      name: 'falls back to the name when details are unreadable',
      model: 'llama3.1:8b',
      parameterSize: 'n/a',
      expected: { weight: 2, parameterBillions: 8, source: 'name' },
    },
    { name: 'weighs an unknown size 1', model: 'my-agent:latest', parameterSize: null, expected: { weight: 1, source: 'unknown' } },
    {
      name: 'weighs cloud models by host size, ignoring parameters',
      model: 'gpt-oss:120b-cloud',
      parameterSize: '116.8B',
      expected: { weight: 4, source: 'cloud' },
    },
  ])('$name', ({ model, parameterSize, expected }) => {
    expect(resolveModelWeight({ model, parameterSize, maxWeight: 8 })).toEqual(expected);
    expect(modelWeight(model, { parameterSize, maxWeight: 8 })).toBe(expected.weight);
  });

  it('does not clamp to maxWeight (the slot limiter does)', () => {
    expect(modelWeight('llama3.3:70b', { parameterSize: '70.6B', maxWeight: 1 })).toBe(3);
    expect(modelWeight('minimax-m2:cloud', { maxWeight: 1 })).toBe(2);
  });
});
