import { fullModelName, isCloudName, modelKey, parseModelName, shortModelName } from './standin-model-name';

describe('parseModelName', () => {
  it.each([
    ['llama3.2', 'registry.ollama.ai/library/llama3.2:latest', 'llama3.2:latest'],
    ['qwen3:8b', 'registry.ollama.ai/library/qwen3:8b', 'qwen3:8b'],
    ['gpt-oss:120b-cloud', 'registry.ollama.ai/library/gpt-oss:120b-cloud', 'gpt-oss:120b-cloud'],
    ['jmorgan/foo:q4', 'registry.ollama.ai/jmorgan/foo:q4', 'jmorgan/foo:q4'],
    ['hf.co/org/model:Q8_0', 'hf.co/org/model:Q8_0', 'hf.co/org/model:Q8_0'],
    ['localhost:5000/ns/m:t', 'localhost:5000/ns/m:t', 'localhost:5000/ns/m:t'],
  ])('%s → full %s, short %s', (raw, full, short) => {
    const parsed = parseModelName(raw);
    expect(parsed).not.toBeNull();
    expect(fullModelName(parsed!)).toBe(full);
    expect(shortModelName(parsed!)).toBe(short);
  });

  it.each(['', ' ', 'has space', 'a/b/c/d', 'model:', ':tag', '/x', 'x/', 'q?x'])('rejects %p', (raw) => {
    expect(parseModelName(raw)).toBeNull();
  });
});

describe('modelKey', () => {
  it('matches case-insensitively and fills the default tag', () => {
    expect(modelKey('Llama3.1')).toBe(modelKey('llama3.1:latest'));
    expect(modelKey('qwen3:8b')).not.toBe(modelKey('qwen3:4b'));
    expect(modelKey('bad name')).toBeNull();
  });
});

describe('isCloudName', () => {
  it.each([
    ['gpt-oss:120b-cloud', true],
    ['kimi-k2:cloud', true],
    ['qwen3:8b', false],
    ['cloud', false],
  ])('%s → %s', (raw, expected) => {
    expect(isCloudName(raw)).toBe(expected);
  });
});
