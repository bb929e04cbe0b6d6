// One place for configuration: the environment is read and validated once, into a typed object.
// Pure: takes an env record, returns a config or throws ConfigError listing every bad variable.
import { isIP } from 'node:net';
import * as path from 'node:path';
import { parseKeepAlive, type KeepAlive } from '../provider/ollama/keep-alive';
import { EXTRACTION_POLICIES, type ExtractionPolicy } from '../provider/ollama/tool-calls/types';

export interface LoupeConfig {
  /** working directory for embedded Postgres data, workspaces and locks (default ./.loupe) */
  home: string;
  /** HTTP port for `npm start` */
  port: number;
  /** address the HTTP server binds: loopback unless set (a container sets 0.0.0.0; the admin API needs its token either way) */
  listenAddress: string;
  /** the admin API and the viewer */
  api: {
    /** largest request body accepted (413 above it) */
    maxBodyBytes: number;
    /** where `POST /api/eval-runs` finds the scenarios it names (paths are relative to it) */
    scenariosDir: string;
    /** undelivered items one WebSocket subscriber may hold before its buffer is dropped and it resynchronises from Postgres */
    liveBufferItems: number;
    /** how long a followed session's live feed gathers before it goes out (one broadcast per tick): latency against fan-out cost */
    liveTickMs: number;
    /** the viewer's trace link per session and iteration: a URL with `{traceId}` (and optionally `{spanId}`), e.g. Grafana Explore on Tempo; unset = no link */
    traceUrlTemplate?: string;
  };
  /** bearer token of the admin API; when unset one is generated once and kept in <home>/admin-token */
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
    /** sent only when set (a runner option: a change reloads the model); unset = Ollama's own (every layer that fits) */
    numGpu?: number;
    /** unset: the loop's default (DEFAULT_LOOP_SETTINGS) */
    numCtx?: number;
    numPredict: number;
    /** sent only when set (a runner option); unset = Ollama chooses (256–2048) */
    numBatch?: number;
    /** sent with every load and chat request, so the model stays loaded across approval and tool waits */
    keepAlive: KeepAlive;
    /** the reasoning level sent to models that take a level (gpt-oss) instead of think: true/false */
    thinkLevel: ThinkLevel;
    /** a reply whose load_duration reaches this (ms) loaded the model (see reload-detection.ts) */
    reloadThresholdMs: number;
    slotWaitTimeoutMs: number;
    /** multiplies retry backoffs; 1 = the spec's 1 s, 2 s, 4 s */
    retryDelayScale: number;
    /** text-mode tool calls: strict (only what each format's reference parser accepts) or lenient (repair and record) */
    toolCallExtraction: ExtractionPolicy;
  };
  /** environment overrides of the loop's settings; unset ones keep DEFAULT_LOOP_SETTINGS */
  loop: {
    maxToolIterations?: number;
    toolTimeoutMs?: number;
  };
  journal: {
    flushIntervalMs: number;
    maxBatch: number;
  };
  eval: {
    /** which trials' workspaces stay on disk once judged (their tool calls are in the journal either way) */
    keepTrialWorkspaces: KeepTrialWorkspaces;
  };
  /** `loupe worker` processes and the queue of trials they share */
  worker: {
    /** how often a worker records that it is alive (ms) */
    heartbeatMs: number;
    /** a worker silent this long is dead: its trials are released to the others (ms) */
    staleMs: number;
    /** how often an idle worker looks for trials (ms) */
    pollMs: number;
    /** the queue's safety net: a trial held this long without its worker closing it is released (s) */
    jobExpireSeconds: number;
  };
  /** sessions started over the API or the WebSocket */
  sessions: {
    /**
     * a session with nothing recorded for this long (ms) is expired: its processes, MCP servers and
     * pending approvals are released, it ends as `expired`, its history stays (mcp-agent's
     * JanitorService); 0 = never
     */
    idleTimeoutMs: number;
  };
  /** simulated models (`sim:<persona>`) */
  sim: {
    /** a directory of persona YAML files searched after the shipped personas/ (a persona of the same name there wins) */
    personasDir?: string;
    /** multiplies the personas' simulated time (prefill, decode, load) on the stand-in: 0.01 runs 100× faster, 0 without delay */
    timeScale: number;
  };
  otlpEndpoint?: string;
  /** how long a dead embedded Postgres may take to come back before the run stops (ms) */
  embeddedPostgresRestartMs: number;
  /** unset: the server logs at 'log', the CLI at 'warn' */
  logLevel?: 'error' | 'warn' | 'log' | 'debug';
}

export const KEEP_TRIAL_WORKSPACES = ['none', 'failed', 'all'] as const;
export type KeepTrialWorkspaces = (typeof KEEP_TRIAL_WORKSPACES)[number];

export const THINK_LEVELS = ['low', 'medium', 'high'] as const;
export type ThinkLevel = (typeof THINK_LEVELS)[number];

/**
 * Ollama's own keep_alive is 5 minutes, the same as Loupe's approval timeout: a session waiting on
 * an approval, a slot or a long tool would find its model unloaded and pay a reload inside a
 * measured turn. 30 minutes covers those waits; an idle model is then held that long after a run.
 */
export const DEFAULT_OLLAMA_KEEP_ALIVE = '30m';
/**
 * mcp-agent-technical-spec.md §4 "Expired Session" names a janitor but no limit. An hour: longer than
 * the longest silence a healthy session can keep (one model request, OLLAMA_REQUEST_TIMEOUT 30 min;
 * an approval, 5 min), so only a session nobody drives and nothing moves is pruned.
 */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 3_600_000;
export const DEFAULT_OLLAMA_THINK_LEVEL: ThinkLevel = 'low';
/**
 * A warm model's load_duration is milliseconds on most versions, but some (0.32.x) spend
 * 0.6–0.8 s re-reading the model's metadata on every request; a real runner start is seconds.
 */
export const DEFAULT_OLLAMA_RELOAD_THRESHOLD_MS = 1000;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment variables:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Node fires a timer longer than this after 1 ms: every duration is bounded by it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * An Ollama base URL: http(s)://host[:port][/path], or host:port as Ollama's own clients accept it.
 * Returns the normalised URL or undefined when the value is neither.
 */
export function parseHttpUrl(raw: string): string | undefined {
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw)
    ? raw
    : /^[\w.-]+:\d+$|^\[[0-9a-f:]+\]:\d+$/i.test(raw)
      ? `http://${raw}`
      : undefined;
  if (!candidate) return undefined;
  try {
    const u = new URL(candidate);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return undefined;
    return candidate.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

function isPostgresUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && Boolean(u.hostname);
  } catch {
    return false;
  }
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): LoupeConfig {
  const problems: string[] = [];
  const int = (name: string, def: number, min = 0, max = Number.MAX_SAFE_INTEGER): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name}=${JSON.stringify(raw)}: expected an integer from ${min} to ${max}`);
      return def;
    }
    return n;
  };
  const ms = (name: string, def: number, min = 1): number => int(name, def, min, MAX_TIMER_MS);
  const num = (name: string, def: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0 || n > max) {
      problems.push(`${name}=${JSON.stringify(raw)}: expected a number from 0 to ${max}`);
      return def;
    }
    return n;
  };
  const optInt = (name: string, min: number, max: number): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    return int(name, 0, min, max);
  };
  const keepAlive = (name: string, def: string): KeepAlive => {
    const raw = env[name];
    const parsed = parseKeepAlive(raw === undefined || raw === '' ? def : raw);
    if (parsed.ok) return parsed.value;
    problems.push(`${name}=${JSON.stringify(raw)}: ${parsed.error}`);
    return (parseKeepAlive(def) as { ok: true; value: KeepAlive }).value;
  };
  const extraction = (name: string, def: ExtractionPolicy): ExtractionPolicy => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    if ((EXTRACTION_POLICIES as readonly string[]).includes(raw)) return raw as ExtractionPolicy;
    problems.push(`${name}=${JSON.stringify(raw)}: expected ${EXTRACTION_POLICIES.join(' or ')}`);
    return def;
  };
  const oneOf = <T extends string>(name: string, values: readonly T[], def: T): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    if ((values as readonly string[]).includes(raw)) return raw as T;
    problems.push(`${name}=${JSON.stringify(raw)}: expected ${values.join(', ')}`);
    return def;
  };
  const url = (name: string): string | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const parsed = parseHttpUrl(raw);
    if (!parsed)
      problems.push(`${name}=${JSON.stringify(raw)}: expected an http:// or https:// URL (e.g. http://127.0.0.1:11434) or host:port`);
    return parsed;
  };
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !isPostgresUrl(databaseUrl)) {
    problems.push(`DATABASE_URL: expected a postgres://user:password@host:port/database URL`);
  }
  const listenAddress = env.LOUPE_LISTEN_ADDRESS || '127.0.0.1';
  if (!isIP(listenAddress) && !/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/i.test(listenAddress)) {
    problems.push(`LOUPE_LISTEN_ADDRESS=${JSON.stringify(listenAddress)}: expected an IP address (127.0.0.1, 0.0.0.0, ::) or a host name`);
  }
  const traceUrlTemplate = env.LOUPE_TRACE_URL_TEMPLATE || undefined;
  if (traceUrlTemplate !== undefined && (!/^https?:\/\//i.test(traceUrlTemplate) || !traceUrlTemplate.includes('{traceId}'))) {
    problems.push(`LOUPE_TRACE_URL_TEMPLATE: expected an http(s) URL with a {traceId} placeholder (and optionally {spanId})`);
  }
  const logLevel = (env.LOUPE_LOG_LEVEL || undefined) as LoupeConfig['logLevel'];
  if (logLevel !== undefined && !['error', 'warn', 'log', 'debug'].includes(logLevel)) {
    problems.push(`LOUPE_LOG_LEVEL=${JSON.stringify(env.LOUPE_LOG_LEVEL)}: expected error, warn, log or debug`);
  }
  const config: LoupeConfig = {
    home: path.resolve(cwd, env.LOUPE_HOME || '.loupe'),
    port: int('LOUPE_PORT', 3000, 0, 65535),
    listenAddress,
    api: {
      maxBodyBytes: int('LOUPE_API_MAX_BODY_BYTES', 1_048_576, 1024, 268_435_456),
      scenariosDir: path.resolve(cwd, env.LOUPE_SCENARIOS_DIR || 'scenarios'),
      liveBufferItems: int('LOUPE_LIVE_BUFFER_ITEMS', 4096, 16, 1_000_000),
      // 30 ms: with 50 subscribers on one session, 20 ms ticks cost the loop 1.23–1.31× its time per
      // iteration and 30 ms 1.17–1.29× (medians 1.30 and 1.19); 500 subscribers' p99 56–62 → 64–72 ms (bench live)
      liveTickMs: int('LOUPE_LIVE_TICK_MS', 30, 1, 1_000),
      traceUrlTemplate,
    },
    adminToken: env.LOUPE_ADMIN_TOKEN || undefined,
    databaseUrl,
    ollama: {
      host: url('OLLAMA_HOST'),
      localHost: url('OLLAMA_LOCAL_HOST') ?? 'http://localhost:11434',
      requestTimeoutMs: ms('OLLAMA_REQUEST_TIMEOUT', 1_800_000),
      idleTimeoutMs: ms('OLLAMA_IDLE_TIMEOUT', 120_000),
      firstByteTimeoutMs: ms('OLLAMA_FIRST_BYTE_TIMEOUT', 600_000),
      maxParallel: optInt('OLLAMA_MAX_PARALLEL', 1, 1024),
      // -1: as many layers on the GPU as fit (what Ollama does when it is not sent); 0: CPU only
      numGpu: optInt('OLLAMA_NUM_GPU', -1, 100_000),
      numCtx: optInt('OLLAMA_NUM_CTX', 256, 16_777_216),
      numPredict: int('OLLAMA_NUM_PREDICT', 2048, 1, 16_777_216),
      numBatch: optInt('OLLAMA_NUM_BATCH', 1, 1_048_576),
      keepAlive: keepAlive('OLLAMA_KEEP_ALIVE', DEFAULT_OLLAMA_KEEP_ALIVE),
      thinkLevel: oneOf('OLLAMA_THINK_LEVEL', THINK_LEVELS, DEFAULT_OLLAMA_THINK_LEVEL),
      reloadThresholdMs: int('OLLAMA_RELOAD_THRESHOLD_MS', DEFAULT_OLLAMA_RELOAD_THRESHOLD_MS, 1, MAX_TIMER_MS),
      slotWaitTimeoutMs: ms('OLLAMA_SLOT_WAIT_TIMEOUT_MS', 300_000),
      retryDelayScale: num('LOUPE_RETRY_DELAY_SCALE', 1, 100),
      toolCallExtraction: extraction('LOUPE_TOOL_CALL_EXTRACTION', 'lenient'),
    },
    loop: {
      maxToolIterations: optInt('LOUPE_MAX_TOOL_ITERATIONS', 1, 100_000),
      toolTimeoutMs: optInt('LOUPE_TOOL_TIMEOUT_MS', 1, MAX_TIMER_MS),
    },
    journal: {
      flushIntervalMs: ms('LOUPE_JOURNAL_FLUSH_MS', 50),
      // a backlog goes out in statements of up to this many entries (one commit each): fewer, larger commits under load
      maxBatch: int('LOUPE_JOURNAL_MAX_BATCH', 2000, 1, 100_000),
    },
    eval: {
      // a failed trial's files are what a researcher opens; a passed one's would only pile up (one
      // directory per trial: a 91,000-trial bench home held 91,000 of them)
      keepTrialWorkspaces: oneOf('LOUPE_KEEP_TRIAL_WORKSPACES', KEEP_TRIAL_WORKSPACES, 'failed'),
    },
    worker: {
      heartbeatMs: ms('LOUPE_WORKER_HEARTBEAT_MS', 5_000),
      staleMs: ms('LOUPE_WORKER_STALE_MS', 30_000),
      pollMs: ms('LOUPE_WORKER_POLL_MS', 500),
      jobExpireSeconds: int('LOUPE_QUEUE_JOB_EXPIRE_S', 4 * 3600, 60, 24 * 3600 * 7),
    },
    sessions: {
      idleTimeoutMs: int('LOUPE_SESSION_IDLE_TIMEOUT_MS', DEFAULT_SESSION_IDLE_TIMEOUT_MS, 0, MAX_TIMER_MS),
    },
    sim: {
      personasDir: env.LOUPE_PERSONAS_DIR ? path.resolve(cwd, env.LOUPE_PERSONAS_DIR) : undefined,
      timeScale: num('LOUPE_SIM_TIME_SCALE', 1, 1000),
    },
    otlpEndpoint: url('OTEL_EXPORTER_OTLP_ENDPOINT'),
    embeddedPostgresRestartMs: ms('LOUPE_PG_RESTART_TIMEOUT_MS', 30_000),
    logLevel,
  };
  if (config.worker.staleMs <= config.worker.heartbeatMs)
    problems.push(`LOUPE_WORKER_STALE_MS=${config.worker.staleMs}: must exceed LOUPE_WORKER_HEARTBEAT_MS (${config.worker.heartbeatMs})`);
  if (problems.length) throw new ConfigError(problems);
  return config;
}
