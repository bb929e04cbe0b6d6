import { Ollama } from 'ollama';
import { hostForModel, isLocalOllamaHost, isSameOllamaHost, mergeModelLists, normalizeOllamaHost } from './host-routing';

// what ollama-js itself does with the same value (its formatHost is not exported)
const ollamaJsHost = (host: string): string => (new Ollama({ host }) as unknown as { config: { host: string } }).config.host;

describe('normalizeOllamaHost', () => {
  it.each([
    ['', 'http://127.0.0.1:11434'],
    ['127.0.0.1', 'http://127.0.0.1:11434'],
    ['gpu-server', 'http://gpu-server:11434'],
    ['gpu-server:8080', 'http://gpu-server:8080'],
    [':8080', 'http://127.0.0.1:8080'],
    ['http://localhost', 'http://localhost:80'],
    ['https://ollama.example.com', 'https://ollama.example.com:443'],
    ['http://gpu-server:11434/', 'http://gpu-server:11434'],
    ['https://user:secret@proxy.example.com/ollama/', 'https://user:secret@proxy.example.com:443/ollama'],
    ['http://[::1]:11434', 'http://[::1]:11434'],
    ['0.0.0.0', 'http://0.0.0.0:11434'],
    ['HTTP://GPU-Server:11434', 'http://gpu-server:11434'],
  ])('%p → %p, as ollama-js does', (value, expected) => {
    expect(normalizeOllamaHost(value)).toBe(expected);
    expect(ollamaJsHost(value)).toBe(expected);
  });

  it.each([
    [undefined, 'http://127.0.0.1:11434'],
    [null, 'http://127.0.0.1:11434'],
    ['  gpu-server  ', 'http://gpu-server:11434'],
  ])('treats %p like an unset or padded OLLAMA_HOST', (value, expected) => {
    expect(normalizeOllamaHost(value)).toBe(expected);
  });

  it('names the bad value when it is not a URL', () => {
    expect(() => normalizeOllamaHost('http://exa mple:1')).toThrow('Invalid Ollama host: "http://exa mple:1"');
  });
});

describe('isLocalOllamaHost', () => {
  it.each([
    ['http://localhost:11434', true],
    ['127.0.0.1', true],
    ['http://127.1.2.3:11434', true],
    ['http://[::1]:11434', true],
    ['0.0.0.0:11434', true],
    ['http://gpu-server:11434', false],
    ['http://192.168.1.20:11434', false],
  ])('%p → %p', (host, expected) => {
    expect(isLocalOllamaHost(host)).toBe(expected);
  });
});

describe('isSameOllamaHost', () => {
  it.each([
    ['http://localhost:11434', 'http://127.0.0.1:11434', true],
    ['localhost', 'http://localhost:11434/', true],
    ['http://localhost:11434', 'http://localhost:11435', false],
    ['http://gpu:11434', 'gpu', true],
    ['http://gpu:11434', 'http://localhost:11434', false],
  ])('%p vs %p → %p', (a, b, expected) => {
    expect(isSameOllamaHost(a, b)).toBe(expected);
  });
});

describe('hostForModel', () => {
  it.each([
    {
      name: 'routes a -cloud model to local Ollama when OLLAMA_HOST is remote (spec scenario)',
      model: 'qwen3-coder:480b-cloud',
      configured: 'http://gpu-server:11434',
      local: undefined,
      expected: { host: 'http://localhost:11434', redirected: true },
    },
    {
      name: 'routes a :cloud model the same way',
      model: 'minimax-m2:cloud',
      configured: 'gpu-server',
      local: undefined,
      expected: { host: 'http://localhost:11434', redirected: true },
    },
    {
      name: 'keeps local models on the configured host',
      model: 'qwen3:8b',
      configured: 'http://gpu-server:11434',
      local: undefined,
      expected: { host: 'http://gpu-server:11434', redirected: false },
    },
    {
      name: 'does not redirect when the configured host is already local',
      model: 'gpt-oss:120b-cloud',
      configured: 'http://127.0.0.1:11434',
      local: undefined,
      expected: { host: 'http://127.0.0.1:11434', redirected: false },
    },
    {
      name: 'does not redirect when the configured host is the given local host',
      model: 'gpt-oss:120b-cloud',
      configured: 'http://workstation:11434',
      local: 'workstation',
      expected: { host: 'http://workstation:11434', redirected: false },
    },
    {
      name: 'uses a custom local host',
      model: 'gpt-oss:120b-cloud',
      configured: 'http://gpu-server:11434',
      local: ':11500',
      expected: { host: 'http://127.0.0.1:11500', redirected: true },
    },
  ])('$name', ({ model, configured, local, expected }) => {
    expect(hostForModel(model, configured, local)).toEqual(expected);
  });
});

describe('mergeModelLists', () => {
  it('adds the local cloud models to the remote list: 3 remote + 2 cloud = 5 (spec scenario)', () => {
    const remote = ['qwen3:8b', 'llama3.2:latest', 'gemma3:4b'];
    const local = ['gpt-oss:120b-cloud', 'qwen3-coder:480b-cloud', 'phi3:latest'];
    expect(mergeModelLists(remote, local)).toEqual([
      'qwen3:8b',
      'llama3.2:latest',
      'gemma3:4b',
      'gpt-oss:120b-cloud',
      'qwen3-coder:480b-cloud',
    ]);
  });

  it('de-duplicates by canonical name, keeping the first entry', () => {
    const remote = [
      { name: 'llama3.2', size: 1 },
      { name: 'llama3.2:latest', size: 2 },
      { name: 'minimax-m2:cloud', size: 3 },
    ];
    const local = [
      { name: 'minimax-m2:cloud', size: 4 },
      { name: 'kimi-k2:1t-cloud', size: 5 },
    ];
    expect(mergeModelLists(remote, local)).toEqual([
      { name: 'llama3.2', size: 1 },
      { name: 'minimax-m2:cloud', size: 3 },
      { name: 'kimi-k2:1t-cloud', size: 5 },
    ]);
  });

  it('returns the remote list when local has no cloud models', () => {
    expect(mergeModelLists(['a'], ['b', 'c'])).toEqual(['a']);
  });
});

describe('hostForModel with two Ollama servers on one machine', () => {
  it('routes a cloud model to the local host when the configured host is another loopback port', () => {
    expect(hostForModel('gpt-oss:120b-cloud', 'http://127.0.0.1:11500', 'http://localhost:11434')).toEqual({
      host: 'http://localhost:11434',
      redirected: true,
    });
  });

  it('does not redirect when both name the same loopback server', () => {
    expect(hostForModel('gpt-oss:120b-cloud', 'http://127.0.0.1:11434', 'http://localhost:11434')).toEqual({
      host: 'http://127.0.0.1:11434',
      redirected: false,
    });
  });
});
