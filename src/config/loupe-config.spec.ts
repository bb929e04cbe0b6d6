import { ConfigError, loadConfig } from './loupe-config';

describe('loadConfig', () => {
  it('applies the spec defaults', () => {
    const c = loadConfig({}, '/work');
    expect(c.home).toBe('/work/.loupe');
    expect(c.port).toBe(3000);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.ollama).toEqual(expect.objectContaining({
      host: undefined, requestTimeoutMs: 1_800_000, idleTimeoutMs: 120_000, numCtx: 8192, numPredict: 2048, numBatch: 512, numGpu: -1, maxParallel: undefined,
    }));
    expect(c.loop.maxToolIterations).toBe(25);
  });

  it('reads every variable it knows', () => {
    const c = loadConfig({
      LOUPE_HOME: 'data', LOUPE_PORT: '8080', DATABASE_URL: 'postgres://u:p@db:5432/x', OLLAMA_HOST: 'http://gpu:11434',
      OLLAMA_REQUEST_TIMEOUT: '1000', OLLAMA_MAX_PARALLEL: '4', OLLAMA_NUM_GPU: '0', OLLAMA_NUM_CTX: '16384',
      LOUPE_MAX_TOOL_ITERATIONS: '10', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318',
    }, '/w');
    expect(c.home).toBe('/w/data');
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBe('postgres://u:p@db:5432/x');
    expect(c.ollama.host).toBe('http://gpu:11434');
    expect(c.ollama.requestTimeoutMs).toBe(1000);
    expect(c.ollama.maxParallel).toBe(4);
    expect(c.ollama.numGpu).toBe(0);
    expect(c.ollama.numCtx).toBe(16384);
    expect(c.loop.maxToolIterations).toBe(10);
    expect(c.otlpEndpoint).toBe('http://otel:4318');
  });

  it('lists every bad variable at once, naming each', () => {
    let error: unknown;
    try {
      loadConfig({ LOUPE_PORT: 'eighty', OLLAMA_NUM_CTX: '12', DATABASE_URL: 'mysql://x', OLLAMA_MAX_PARALLEL: '0' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/LOUPE_PORT="eighty"/);
    expect(problems).toMatch(/OLLAMA_NUM_CTX="12".*>= 256/);
    expect(problems).toMatch(/DATABASE_URL/);
    expect(problems).toMatch(/OLLAMA_MAX_PARALLEL="0"/);
  });
});
