import { ConfigError, loadConfig } from './loupe-config';

describe('loadConfig', () => {
  it('applies the spec defaults', () => {
    const c = loadConfig({}, '/work');
    expect(c.home).toBe('/work/.loupe');
    expect(c.port).toBe(3000);
    expect(c.listenAddress).toBe('127.0.0.1');
    expect(c.api).toEqual({ maxBodyBytes: 1_048_576, scenariosDir: '/work/scenarios', liveBufferItems: 4096, liveTickMs: 30 });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.ollama).toEqual(
      expect.objectContaining({
        host: undefined,
        requestTimeoutMs: 1_800_000,
        idleTimeoutMs: 120_000,
        numPredict: 2048,
        // runner options Ollama chooses itself unless set: sending them would reload a model loaded without them
        numBatch: undefined,
        numGpu: undefined,
        maxParallel: undefined,
        keepAlive: { wire: '30m', ms: 1_800_000 },
        thinkLevel: 'low',
        reloadThresholdMs: 1000,
      }),
    );
    // the loop's own settings keep their one set of defaults (DEFAULT_LOOP_SETTINGS) unless the environment overrides them
    expect(c.ollama.numCtx).toBeUndefined();
    expect(c.loop).toEqual({ maxToolIterations: undefined, toolTimeoutMs: undefined });
  });

  it('reads every variable it knows', () => {
    const c = loadConfig(
      {
        LOUPE_HOME: 'data',
        LOUPE_PORT: '8080',
        LOUPE_LISTEN_ADDRESS: '0.0.0.0',
        LOUPE_API_MAX_BODY_BYTES: '4096',
        LOUPE_SCENARIOS_DIR: 'suite',
        LOUPE_LIVE_BUFFER_ITEMS: '64',
        LOUPE_LIVE_TICK_MS: '250',
        DATABASE_URL: 'postgres://u:p@db:5432/x',
        OLLAMA_HOST: 'http://gpu:11434',
        OLLAMA_REQUEST_TIMEOUT: '1000',
        OLLAMA_MAX_PARALLEL: '4',
        OLLAMA_NUM_GPU: '0',
        OLLAMA_NUM_CTX: '16384',
        LOUPE_MAX_TOOL_ITERATIONS: '10',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318',
      },
      '/w',
    );
    expect(c.home).toBe('/w/data');
    expect(c.port).toBe(8080);
    expect(c.listenAddress).toBe('0.0.0.0');
    expect(c.api).toEqual({ maxBodyBytes: 4096, scenariosDir: '/w/suite', liveBufferItems: 64, liveTickMs: 250 });
    expect(c.databaseUrl).toBe('postgres://u:p@db:5432/x');
    expect(c.ollama.host).toBe('http://gpu:11434');
    expect(c.ollama.requestTimeoutMs).toBe(1000);
    expect(c.ollama.maxParallel).toBe(4);
    expect(c.ollama.numGpu).toBe(0);
    expect(c.ollama.numCtx).toBe(16384);
    expect(c.loop.maxToolIterations).toBe(10);
    expect(c.otlpEndpoint).toBe('http://otel:4318');
  });

  it('reads the runner options, keep_alive, think level and reload threshold', () => {
    const c = loadConfig({
      OLLAMA_NUM_BATCH: '1024',
      OLLAMA_NUM_GPU: '-1',
      OLLAMA_KEEP_ALIVE: '1h',
      OLLAMA_THINK_LEVEL: 'high',
      OLLAMA_RELOAD_THRESHOLD_MS: '200',
    });
    expect(c.ollama).toMatchObject({ numBatch: 1024, numGpu: -1, keepAlive: { wire: '1h', ms: 3_600_000 }, thinkLevel: 'high' });
    expect(c.ollama.reloadThresholdMs).toBe(200);
    expect(loadConfig({ OLLAMA_KEEP_ALIVE: '600' }).ollama.keepAlive).toEqual({ wire: 600, ms: 600_000 });
    expect(loadConfig({ OLLAMA_KEEP_ALIVE: '-1' }).ollama.keepAlive).toEqual({ wire: -1, ms: null });
  });

  it('reads the text-mode extraction policy (default lenient)', () => {
    expect(loadConfig({}).ollama.toolCallExtraction).toBe('lenient');
    expect(loadConfig({ LOUPE_TOOL_CALL_EXTRACTION: 'strict' }).ollama.toolCallExtraction).toBe('strict');
  });

  it("reads which trials' workspaces stay (default: the failed ones')", () => {
    expect(loadConfig({}).eval.keepTrialWorkspaces).toBe('failed');
    expect(loadConfig({ LOUPE_KEEP_TRIAL_WORKSPACES: 'none' }).eval.keepTrialWorkspaces).toBe('none');
    expect(loadConfig({ LOUPE_KEEP_TRIAL_WORKSPACES: 'all' }).eval.keepTrialWorkspaces).toBe('all');
  });

  it.each([
    ['LOUPE_KEEP_TRIAL_WORKSPACES', 'yes', /LOUPE_KEEP_TRIAL_WORKSPACES="yes": expected none, failed, all/],
    ['OLLAMA_KEEP_ALIVE', '5 minutes', /OLLAMA_KEEP_ALIVE="5 minutes": expected seconds \(e.g. 1800\) or a Go duration/],
    ['OLLAMA_KEEP_ALIVE', '1d', /OLLAMA_KEEP_ALIVE="1d"/],
    ['OLLAMA_THINK_LEVEL', 'max', /OLLAMA_THINK_LEVEL="max": expected low, medium, high/],
    ['LOUPE_TOOL_CALL_EXTRACTION', 'loose', /LOUPE_TOOL_CALL_EXTRACTION="loose": expected strict or lenient/],
    ['OLLAMA_NUM_BATCH', '0', /OLLAMA_NUM_BATCH="0"/],
    ['OLLAMA_NUM_GPU', '-2', /OLLAMA_NUM_GPU="-2"/],
  ])('rejects %s=%j with a clear message', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
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
    expect(problems).toMatch(/OLLAMA_NUM_CTX="12".*from 256/);
    expect(problems).toMatch(/DATABASE_URL/);
    expect(problems).toMatch(/OLLAMA_MAX_PARALLEL="0"/);
  });

  it.each([
    ['OLLAMA_HOST', 'not-a-url', /OLLAMA_HOST="not-a-url": expected an http:\/\/ or https:\/\/ URL/],
    ['OLLAMA_HOST', 'ftp://gpu:11434', /OLLAMA_HOST="ftp:\/\/gpu:11434"/],
    ['OLLAMA_LOCAL_HOST', 'localhost', /OLLAMA_LOCAL_HOST/],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector', /OTEL_EXPORTER_OTLP_ENDPOINT/],
    ['DATABASE_URL', 'postgres://', /DATABASE_URL/],
    // Node fires a timer above 2^31-1 ms after 1 ms: such durations are bad input, not "forever"
    ['LOUPE_TOOL_TIMEOUT_MS', '2147483648', /LOUPE_TOOL_TIMEOUT_MS="2147483648": expected an integer from 1 to 2147483647/],
    ['OLLAMA_IDLE_TIMEOUT', '99999999999', /OLLAMA_IDLE_TIMEOUT/],
    ['OLLAMA_NUM_GPU', '-5', /OLLAMA_NUM_GPU="-5"/],
    ['OLLAMA_NUM_GPU', '1.5', /OLLAMA_NUM_GPU="1.5"/],
    ['LOUPE_RETRY_DELAY_SCALE', '1e9', /LOUPE_RETRY_DELAY_SCALE/],
    ['LOUPE_PORT', '70000', /LOUPE_PORT="70000"/],
    ['LOUPE_LISTEN_ADDRESS', 'http://0.0.0.0', /LOUPE_LISTEN_ADDRESS="http:\/\/0.0.0.0": expected an IP address/],
    ['LOUPE_API_MAX_BODY_BYTES', '10', /LOUPE_API_MAX_BODY_BYTES="10": expected an integer from 1024/],
    ['LOUPE_LIVE_TICK_MS', '0', /LOUPE_LIVE_TICK_MS="0": expected an integer from 1 to 1000/],
    ['LOUPE_LIVE_TICK_MS', '5000', /LOUPE_LIVE_TICK_MS="5000"/],
  ])('rejects %s=%s with a line naming the variable', (name, value, want) => {
    expect(() => loadConfig({ [name]: value })).toThrow(want);
  });

  it('accepts host:port for Ollama as its own clients do, and normalises it to a URL', () => {
    expect(loadConfig({ OLLAMA_HOST: '127.0.0.1:11434' }).ollama.host).toBe('http://127.0.0.1:11434');
    expect(loadConfig({ OLLAMA_HOST: 'http://gpu:11434/' }).ollama.host).toBe('http://gpu:11434');
  });
});
