import {
  DEFAULT_STANDIN_CATALOG,
  findCatalogModel,
  isCloudModel,
  listedName,
  modelDigest,
  parameterCount,
  remoteModelName,
} from './standin-catalog';
import { pullProgressLines } from './standin-pull-plan';
import { ModelStore } from './standin-model-store';

describe('default catalog', () => {
  it('has the expected models and capabilities', () => {
    const caps = Object.fromEntries(DEFAULT_STANDIN_CATALOG.map((m) => [m.name, m.capabilities]));
    expect(caps).toEqual({
      'llama3.1:8b': ['completion', 'tools'],
      'qwen3:8b': ['completion', 'tools', 'thinking'],
      'qwen2.5:0.5b': ['completion', 'tools'],
      'gemma:2b': ['completion'],
      'mistral:7b': ['completion', 'tools'],
      'gpt-oss:120b-cloud': ['completion', 'tools', 'thinking'],
      'deepseek-r1:14b': ['completion', 'thinking'],
    });
  });

  it('finds models case-insensitively and with the default tag', () => {
    expect(findCatalogModel(DEFAULT_STANDIN_CATALOG, 'QWEN3:8b')?.name).toBe('qwen3:8b');
    expect(
      findCatalogModel([{ name: 'llama3.2', family: 'llama', parameterSize: '3.2B', capabilities: ['completion'] }], 'llama3.2:latest')
        ?.name,
    ).toBe('llama3.2');
    expect(findCatalogModel(DEFAULT_STANDIN_CATALOG, 'nope')).toBeUndefined();
  });

  it('cloud models are recognised by flag or suffix and point at their base name', () => {
    const cloud = findCatalogModel(DEFAULT_STANDIN_CATALOG, 'gpt-oss:120b-cloud')!;
    expect(isCloudModel(cloud)).toBe(true);
    expect(remoteModelName(cloud)).toBe('gpt-oss:120b');
    expect(remoteModelName({ name: 'kimi-k2:cloud', family: 'x', parameterSize: '1T', capabilities: [] })).toBe('kimi-k2');
    expect(isCloudModel(findCatalogModel(DEFAULT_STANDIN_CATALOG, 'qwen3:8b')!)).toBe(false);
  });

  it('digests are deterministic 64-hex; parameter sizes parse', () => {
    const m = DEFAULT_STANDIN_CATALOG[0];
    expect(modelDigest(m)).toMatch(/^[0-9a-f]{64}$/);
    expect(modelDigest(m)).toBe(modelDigest({ ...m }));
    expect(parameterCount({ ...m, parameterSize: '494.03M' })).toBe(494_030_000);
    expect(listedName({ ...m, name: 'foo' })).toBe('foo:latest');
  });
});

describe('pull progress lines', () => {
  const model = DEFAULT_STANDIN_CATALOG[0];

  it("follows Ollama's status sequence with 12-hex layer labels", () => {
    const lines = pullProgressLines(model, false, 3);
    expect(lines[0]).toEqual({ status: 'pulling manifest' });
    expect(lines.slice(-3).map((l) => l.status)).toEqual(['verifying sha256 digest', 'writing manifest', 'success']);
    const layerLines = lines.slice(1, -3);
    for (const l of layerLines) {
      expect(l.status).toBe(`pulling ${l.digest!.slice(7, 19)}`);
      expect(l.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(l.completed).toBeLessThanOrEqual(l.total!);
    }
    const weights = layerLines.filter((l) => l.digest === layerLines[0].digest);
    expect(weights).toHaveLength(3);
    expect(weights.map((l) => l.completed)).toEqual([...weights.map((l) => l.completed)].sort((a, b) => a! - b!));
    expect(weights[2].completed).toBe(weights[2].total);
  });

  it('an installed model gets one finished line per layer', () => {
    const lines = pullProgressLines(model, true, 3).slice(1, -3);
    expect(lines).toHaveLength(4);
    expect(lines.every((l) => l.completed === l.total)).toBe(true);
  });
});

describe('ModelStore', () => {
  it('lists installed models newest first; pull installs, delete removes', () => {
    const store = new ModelStore([
      { name: 'a:1', family: 'llama', parameterSize: '1B', capabilities: ['completion'] },
      { name: 'b:1', family: 'llama', parameterSize: '1B', capabilities: ['completion'], installed: false },
      { name: 'A:1', family: 'dup', parameterSize: '1B', capabilities: ['completion'] },
    ]);
    expect(store.catalog.map((m) => m.name)).toEqual(['a:1', 'b:1']);
    expect(store.list().map((e) => e.model.name)).toEqual(['a:1']);
    expect(store.find('b:1')).toBeUndefined();
    expect(store.known('b:1')?.name).toBe('b:1');
    store.install(store.known('b:1')!);
    expect(store.list().map((e) => e.model.name)).toEqual(['b:1', 'a:1']);
    expect(store.remove(store.find('a:1')!)).toBe(true);
    expect(store.list().map((e) => e.model.name)).toEqual(['b:1']);
    store.reset();
    expect(store.list().map((e) => e.model.name)).toEqual(['a:1']);
  });
});
