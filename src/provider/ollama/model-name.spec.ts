import { canonicalModelName, isCloudModel, parseModelName } from './model-name';

describe('parseModelName', () => {
  it.each([
    ['llama3.2', { prefix: '', base: 'llama3.2', tag: 'latest' }],
    ['qwen3:8b', { prefix: '', base: 'qwen3', tag: '8b' }],
    ['Qwen3:8B', { prefix: '', base: 'qwen3', tag: '8b' }],
    ['gpt-oss:120b-cloud', { prefix: '', base: 'gpt-oss', tag: '120b-cloud' }],
    [
      'hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M',
      { prefix: 'hf.co/bartowski/', base: 'llama-3.2-3b-instruct-gguf', tag: 'q4_k_m' },
    ],
    ['registry.local:5000/team/mistral', { prefix: 'registry.local:5000/team/', base: 'mistral', tag: 'latest' }],
    ['qwen3:', { prefix: '', base: 'qwen3', tag: 'latest' }],
  ])('splits %p', (name, parts) => {
    expect(parseModelName(name)).toEqual(parts);
  });
});

describe('canonicalModelName', () => {
  it.each([
    ['llama3.2', 'llama3.2:latest'],
    ['llama3.2:latest', 'llama3.2:latest'],
    [' Qwen3:8B ', 'qwen3:8b'],
    ['registry.local:5000/team/mistral', 'registry.local:5000/team/mistral:latest'],
  ])('%p → %p', (name, canonical) => {
    expect(canonicalModelName(name)).toBe(canonical);
  });
});

describe('isCloudModel', () => {
  it.each([
    ['gpt-oss:120b-cloud', true],
    ['minimax-m2:cloud', true],
    ['mymodel-cloud', true],
    ['llama3.2', false],
    ['cloud-llama:8b', false],
  ])('%p → %p', (name, expected) => {
    expect(isCloudModel(name)).toBe(expected);
  });
});
