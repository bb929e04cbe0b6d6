// One place for configuration: the environment is read and validated once, into a typed object.
// Pure: takes an env record, returns a config or throws ConfigError listing every bad variable.
import * as path from 'node:path';

export interface LoupeConfig {
  /** working directory for embedded Postgres data, workspaces and locks (default ./.loupe) */
  home: string;
  /** HTTP port for `npm start` */
  port: number;
  /** bearer token for the admin API and WebSocket; generated and printed when unset */
  adminToken?: string;
  databaseUrl?: string;
  ollama: {
    /** undefined = the eval runner starts the stand-in */
    host?: string;
    localHost: string;
    requestTimeoutMs: number;
    idleTimeoutMs: number;
    firstByteTimeoutMs: number;
    maxParallel?: number;
    numGpu: number;
    numCtx: number;
    numPredict: number;
    numBatch: number;
    slotWaitTimeoutMs: number;
    /** multiplies retry backoffs; 1 = the spec's 1 s, 2 s, 4 s */
    retryDelayScale: number;
  };
  loop: {
    maxToolIterations: number;
    toolTimeoutMs: number;
  };
  journal: {
    flushIntervalMs: number;
    maxBatch: number;
  };
  otlpEndpoint?: string;
  /** unset: the server logs at 'log', the CLI at 'warn' */
  logLevel?: 'error' | 'warn' | 'log' | 'debug';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment variables:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env, cwd = process.cwd()): LoupeConfig {
  const problems: string[] = [];
  const int = (name: string, def: number, min = 0): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) {
      problems.push(`${name}=${JSON.stringify(raw)}: expected an integer >= ${min}`);
      return def;
    }
    return n;
  };
  const num = (name: string, def: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) {
      problems.push(`${name}=${JSON.stringify(raw)}: expected a number >= 0`);
      return def;
    }
    return n;
  };
  const optInt = (name: string, min = 1): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    return int(name, 0, min);
  };
  const url = (name: string): string | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    return raw;
  };
  const databaseUrl = url('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push(`DATABASE_URL: expected a postgres:// URL`);
  }
  const logLevel = (env.LOUPE_LOG_LEVEL || undefined) as LoupeConfig['logLevel'];
  if (logLevel !== undefined && !['error', 'warn', 'log', 'debug'].includes(logLevel)) {
    problems.push(`LOUPE_LOG_LEVEL=${JSON.stringify(env.LOUPE_LOG_LEVEL)}: expected error, warn, log or debug`);
  }
  const config: LoupeConfig = {
    home: path.resolve(cwd, env.LOUPE_HOME || '.loupe'),
    port: int('LOUPE_PORT', 3000, 0),
    adminToken: env.LOUPE_ADMIN_TOKEN || undefined,
    databaseUrl,
    ollama: {
      host: url('OLLAMA_HOST'),
      localHost: env.OLLAMA_LOCAL_HOST || 'http://localhost:11434',
      requestTimeoutMs: int('OLLAMA_REQUEST_TIMEOUT', 1_800_000, 1),
      idleTimeoutMs: int('OLLAMA_IDLE_TIMEOUT', 120_000, 1),
      firstByteTimeoutMs: int('OLLAMA_FIRST_BYTE_TIMEOUT', 600_000, 1),
      maxParallel: optInt('OLLAMA_MAX_PARALLEL'),
      numGpu: Number.isInteger(Number(env.OLLAMA_NUM_GPU)) && env.OLLAMA_NUM_GPU ? Number(env.OLLAMA_NUM_GPU) : -1,
      numCtx: int('OLLAMA_NUM_CTX', 8192, 256),
      numPredict: int('OLLAMA_NUM_PREDICT', 2048, 1),
      numBatch: int('OLLAMA_NUM_BATCH', 512, 1),
      slotWaitTimeoutMs: int('OLLAMA_SLOT_WAIT_TIMEOUT_MS', 300_000, 1),
      retryDelayScale: num('LOUPE_RETRY_DELAY_SCALE', 1),
    },
    loop: {
      maxToolIterations: int('LOUPE_MAX_TOOL_ITERATIONS', 25, 1),
      toolTimeoutMs: int('LOUPE_TOOL_TIMEOUT_MS', 30_000, 1),
    },
    journal: {
      flushIntervalMs: int('LOUPE_JOURNAL_FLUSH_MS', 50, 1),
      maxBatch: int('LOUPE_JOURNAL_MAX_BATCH', 500, 1),
    },
    otlpEndpoint: url('OTEL_EXPORTER_OTLP_ENDPOINT'),
    logLevel,
  };
  if (env.OLLAMA_NUM_GPU && !Number.isInteger(Number(env.OLLAMA_NUM_GPU))) {
    problems.push(`OLLAMA_NUM_GPU=${JSON.stringify(env.OLLAMA_NUM_GPU)}: expected an integer`);
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}
