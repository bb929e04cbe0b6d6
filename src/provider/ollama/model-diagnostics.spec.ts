import { diagnoseModel } from './model-diagnostics';
import type { ModelDetail } from './ollama-models';

const detail = (over: Partial<ModelDetail>): ModelDetail => ({
  name: 'llama3.1:8b',
  host: 'http://gpu:11434',
  sizeBytes: 4_900_000_000,
  family: 'llama',
  parameterSize: '8.0B',
  quantization: 'Q4_K_M',
  capabilities: ['completion', 'tools'],
  cloud: false,
  loaded: false,
  ...over,
});

describe('diagnoseModel', () => {
  it('a local model with native tools is usable as it stands', () => {
    const d = diagnoseModel('llama3.1:8b', detail({}), null, 4);
    expect(d).toEqual(
      expect.objectContaining({
        installed: true,
        ok: true,
        toolCalling: { mode: 'native', reason: 'native' },
        slotWeight: 2,
        problems: [],
      }),
    );
  });

  it('qwen3 gets text tools and its thinking switched off locally', () => {
    const d = diagnoseModel(
      'qwen3:8b',
      detail({ name: 'qwen3:8b', family: 'qwen3', capabilities: ['completion', 'tools', 'thinking'] }),
      null,
      4,
    );
    expect(d.toolCalling).toEqual({ mode: 'text', reason: 'text_family' });
    expect(d.think).toBe(false);
  });

  it('names what is in the way: not installed, no completion, no tools, unknown capabilities', () => {
    expect(diagnoseModel('phi4:14b', undefined, null, 4)).toEqual(
      expect.objectContaining({ installed: false, ok: false, problems: ['not installed on the host: pull it first'] }),
    );
    const embed = diagnoseModel(
      'nomic-embed-text',
      detail({ name: 'nomic-embed-text', family: 'nomic-bert', capabilities: ['embedding'] }),
      null,
      4,
    );
    expect(embed.ok).toBe(false);
    expect(embed.problems).toEqual([expect.stringMatching(/no completion capability/)]);
    const noTools = diagnoseModel('gemma2:9b', detail({ name: 'gemma2:9b', family: 'gemma2', capabilities: ['completion'] }), null, 4);
    expect(noTools.toolCalling).toEqual({ mode: 'text', reason: 'no_tools_capability' });
    expect(noTools.ok).toBe(true);
    expect(diagnoseModel('llama3.1:8b', detail({ capabilities: [] }), null, 4).problems).toEqual([
      expect.stringMatching(/capabilities unknown/),
    ]);
  });

  it('cloud models are text-based and weigh half the host', () => {
    const d = diagnoseModel(
      'gpt-oss:120b-cloud',
      detail({ name: 'gpt-oss:120b-cloud', cloud: true, host: 'http://localhost:11434' }),
      null,
      8,
    );
    expect(d).toEqual(
      expect.objectContaining({
        cloud: true,
        host: 'http://localhost:11434',
        slotWeight: 4,
        toolCalling: { mode: 'text', reason: 'cloud' },
      }),
    );
  });
});
