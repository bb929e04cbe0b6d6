import {
  MODEL_FAMILIES,
  TEXT_BASED_TOOL_FAMILIES,
  THINK_LEVEL_FAMILIES,
  detectModelFamily,
  isCloudModel,
  thinkParam,
  toolCallingDecision,
  toolCallingMode,
} from './model-family';
import type { ModelFamily } from './model-family';

// real Ollama library / Hugging Face names and the family each belongs to
const NAMED_MODELS: Array<[string, ModelFamily]> = [
  ['llama3.2', 'llama'],
  ['llama3.1:8b-instruct-q4_K_M', 'llama'],
  ['codellama:13b', 'llama'],
  ['llava:7b', 'llama'],
  ['qwen2.5:7b', 'qwen2'],
  ['qwen2.5-coder:32b', 'qwen2'],
  ['qwq:32b', 'qwen2'],
  ['qwen3:8b', 'qwen3'],
  ['qwen3.5:27b', 'qwen3'],
  ['qwen3-coder:30b', 'qwen3'],
  ['qwen3-coder:480b-cloud', 'qwen3'],
  ['qwen3-next:80b', 'qwen3'],
  ['hf.co/unsloth/Qwen3-30B-A3B-GGUF:Q4_K_M', 'qwen3'],
  ['mistral:7b', 'mistral'],
  ['mistral-nemo:12b', 'mistral'],
  ['mixtral:8x7b', 'mistral'],
  ['magistral:24b', 'mistral'],
  ['dolphin-mixtral:8x7b', 'mistral'],
  ['devstral:24b', 'devstral'],
  ['devstral-small-2:24b', 'devstral'],
  ['gemma3:4b', 'gemma'],
  ['embeddinggemma:300m', 'gemma'],
  ['phi3:3.8b', 'phi'],
  ['phi4-mini', 'phi'],
  ['dolphin-phi:2.7b', 'phi'],
  ['deepseek-v3.1:671b-cloud', 'deepseek'],
  ['deepseek-coder-v2:16b', 'deepseek'],
  ['deepseek-r1:8b', 'deepseek-r1'],
  ['deepseek-r1:1.5b', 'deepseek-r1'],
  ['gpt-oss:20b', 'gpt-oss'],
  ['gpt-oss:120b-cloud', 'gpt-oss'],
  ['glm4:9b', 'glm'],
  ['glm-4.6:cloud', 'glm'],
  ['kimi-k2:1t-cloud', 'kimi'],
  ['kimi-k2.5:cloud', 'kimi'],
  ['minimax-m2:cloud', 'minimax'],
  ['nemotron-mini:4b', 'nemotron'],
  ['llama3.1-nemotron:70b', 'nemotron'],
  ['command-r:35b', 'command-r'],
  ['command-r7b:7b', 'command-r'],
  ['command-a:111b', 'command-r'],
  ['hermes3:8b', 'hermes'],
  ['nous-hermes2-mixtral:8x7b', 'hermes'],
  ['granite3.3:8b', 'granite'],
  ['granite4:tiny-h', 'granite'],
  ['gemini-3-pro-preview:latest', 'gemini'],
  ['dolphin3:8b', 'unknown'],
  ['phind-codellama:34b', 'llama'],
  ['my-agent:latest', 'unknown'],
];

describe('detectModelFamily', () => {
  it.each(NAMED_MODELS)('detects %s as %s from its name', (model, family) => {
    expect(detectModelFamily(model)).toBe(family);
  });

  it.each([
    { name: 'trusts the name over the GGUF architecture', model: 'mistral:7b', details: { family: 'llama' }, family: 'mistral' },
    { name: 'keeps kimi out of deepseek2', model: 'kimi-k2:1t-cloud', details: { family: 'deepseek2' }, family: 'kimi' },
    { name: 'keeps deepseek-r1 distills out of qwen2', model: 'deepseek-r1:7b', details: { family: 'qwen2' }, family: 'deepseek-r1' },
    { name: 'uses details.family for a custom name', model: 'my-agent:latest', details: { family: 'qwen3moe' }, family: 'qwen3' },
    { name: 'maps the gptoss architecture', model: 'custom', details: { family: 'gptoss' }, family: 'gpt-oss' },
    { name: 'maps the deepseek2 architecture', model: 'custom', details: { family: 'deepseek2' }, family: 'deepseek' },
    { name: 'maps the mistral3 architecture', model: 'custom', details: { family: 'mistral3' }, family: 'mistral' },
    { name: 'maps the gemma3 architecture', model: 'custom', details: { family: 'gemma3' }, family: 'gemma' },
    { name: 'maps the phi3 architecture', model: 'custom', details: { family: 'phi3' }, family: 'phi' },
    { name: 'maps the glm4moe architecture', model: 'custom', details: { family: 'glm4moe' }, family: 'glm' },
    { name: 'maps the cohere2 architecture', model: 'custom', details: { family: 'cohere2' }, family: 'command-r' },
    { name: 'maps the nemotron_h architecture', model: 'custom', details: { family: 'nemotron_h' }, family: 'nemotron' },
    { name: 'falls back to details.families', model: 'custom', details: { family: 'clip', families: ['clip', 'mllama'] }, family: 'llama' },
    { name: 'gives unknown when nothing matches', model: 'custom', details: { family: 'bert', families: ['bert'] }, family: 'unknown' },
    { name: 'tolerates null details', model: 'custom', details: null, family: 'unknown' },
  ])('$name', ({ model, details, family }) => {
    expect(detectModelFamily(model, details)).toBe(family);
  });

  // corvid listed families its detector could never return; ours must all be reachable
  it.each([...TEXT_BASED_TOOL_FAMILIES, ...THINK_LEVEL_FAMILIES, ...MODEL_FAMILIES])(
    'reaches the family %s from at least one real model name',
    (family) => {
      expect(NAMED_MODELS.some(([model]) => detectModelFamily(model) === family)).toBe(true);
    },
  );
});

describe('isCloudModel', () => {
  it.each([
    ['gpt-oss:120b-cloud', true],
    ['qwen3-coder:480b-cloud', true],
    ['minimax-m2:cloud', true],
    ['GLM-4.6:CLOUD', true],
    ['  kimi-k2:1t-cloud ', true],
    ['qwen3:8b', false],
    ['soundcloud:7b', false],
    ['cloudy:latest', false],
  ])('%p → %p', (name, expected) => {
    expect(isCloudModel(name)).toBe(expected);
  });
});

const ALL = ['completion', 'tools', 'thinking'];

describe('toolCallingDecision', () => {
  it.each([
    { model: 'llama3.1:8b', caps: ['completion', 'tools'], expected: { mode: 'native', family: 'llama', reason: 'native' } },
    { model: 'llama3.1:8b', caps: undefined, expected: { mode: 'native', family: 'llama', reason: 'native' } },
    { model: 'qwen3:8b', caps: ALL, expected: { mode: 'text', family: 'qwen3', reason: 'text_family' } },
    { model: 'qwen3.5:27b', caps: ALL, expected: { mode: 'text', family: 'qwen3', reason: 'text_family' } },
    { model: 'gpt-oss:20b', caps: ALL, expected: { mode: 'text', family: 'gpt-oss', reason: 'text_family' } },
    { model: 'devstral:24b', caps: ['completion', 'tools'], expected: { mode: 'text', family: 'devstral', reason: 'text_family' } },
    { model: 'mistral:7b', caps: ['completion', 'tools'], expected: { mode: 'native', family: 'mistral', reason: 'native' } },
    { model: 'gemma3:4b', caps: ['completion', 'vision'], expected: { mode: 'text', family: 'gemma', reason: 'no_tools_capability' } },
    {
      model: 'deepseek-r1:8b',
      caps: ['completion', 'thinking'],
      expected: { mode: 'text', family: 'deepseek-r1', reason: 'no_tools_capability' },
    },
    { model: 'llama3.1:70b-cloud', caps: ['completion', 'tools'], expected: { mode: 'text', family: 'llama', reason: 'cloud' } },
    { model: 'embeddinggemma:300m', caps: ['embedding'], expected: { mode: 'none', family: 'gemma', reason: 'no_completion_capability' } },
  ])('$model with $caps → $expected.mode ($expected.reason)', ({ model, caps, expected }) => {
    expect(toolCallingDecision(model, undefined, caps)).toEqual(expected);
    expect(toolCallingMode(model, undefined, caps)).toBe(expected.mode);
  });

  it('uses details.family to put a custom qwen3 build in text mode', () => {
    expect(toolCallingMode('my-agent:latest', { family: 'qwen3' }, ['completion', 'tools'])).toBe('text');
  });
});

describe('thinkParam (from capabilities, not family names)', () => {
  const THINKING = ['completion', 'tools', 'thinking'];
  it.each([
    { name: 'turns thinking off for a local model with the thinking capability', model: 'qwen3:8b', caps: ALL, expected: false },
    { name: 'turns it off for any family that has the capability', model: 'magistral:24b', caps: THINKING, expected: false },
    { name: 'turns it off for a custom name with the capability', model: 'my-agent:latest', caps: THINKING, expected: false },
    { name: 'turns thinking off for local deepseek-r1', model: 'deepseek-r1:8b', caps: ['completion', 'thinking'], expected: false },
    { name: 'sends nothing when capabilities are unknown', model: 'qwen3:8b', caps: undefined, expected: undefined },
    {
      name: 'sends nothing to a qwen3 build without the capability',
      model: 'qwen3:8b',
      caps: ['completion', 'tools'],
      expected: undefined,
    },
    { name: 'sends nothing to a model without the capability', model: 'llama3.1:8b', caps: ['completion', 'tools'], expected: undefined },
    { name: 'sends gpt-oss a level, not a boolean', model: 'gpt-oss:20b', caps: ALL, expected: 'low' },
    { name: 'sends a configured level to gpt-oss', model: 'gpt-oss:20b', caps: ALL, prefs: { level: 'high' as const }, expected: 'high' },
    { name: 'sends gpt-oss a level even when thinking is on', model: 'gpt-oss:20b', caps: ALL, prefs: { enabled: true }, expected: 'low' },
    { name: 'sends gpt-oss nothing without the capability', model: 'gpt-oss:20b', caps: ['completion', 'tools'], expected: undefined },
    { name: 'sends a cloud gpt-oss a level', model: 'gpt-oss:120b-cloud', caps: ALL, expected: 'low' },
    { name: 'sends true when thinking is switched on', model: 'qwen3:8b', caps: ALL, prefs: { enabled: true }, expected: true },
    { name: 'keeps thinking on for a cloud model that has it', model: 'qwen3-coder:480b-cloud', caps: ALL, expected: true },
    { name: 'never sends true to a cloud model without it', model: 'kimi-k2:1t-cloud', caps: ['completion', 'tools'], expected: undefined },
    { name: 'never sends true when cloud capabilities are unknown', model: 'kimi-k2:1t-cloud', caps: undefined, expected: undefined },
  ])('$name', ({ model, caps, prefs, expected }) => {
    expect(thinkParam(model, undefined, caps, prefs)).toBe(expected);
  });

  it('reads the family from details for a custom name (level vs boolean)', () => {
    expect(thinkParam('my-oss:latest', { family: 'gpt-oss' }, ALL)).toBe('low');
  });
});
