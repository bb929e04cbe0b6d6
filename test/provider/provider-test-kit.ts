// Shared plumbing for the provider integration tests: real stand-ins on free ports, a real
// OllamaProvider (real ollama client, real HTTP) pointed at them with small budgets, and
// recorders for the provider's events and log lines.
import { createServer } from 'node:net';

import type { ProviderEventSink } from '../../src/provider/llm-provider';
import type { LlmToolDefinition } from '../../src/provider/llm-types';
import { OllamaProvider, type OllamaProviderOptions } from '../../src/provider/ollama/ollama-provider';
import { ProviderError } from '../../src/provider/provider-errors';
import { StandinServer } from '../../src/standin/standin-server';
import type { StandinModel, StandinOptions } from '../../src/standin/standin-script';
import type { StandinRequestRecord } from '../../src/standin/standin-request-log';

const servers: StandinServer[] = [];
const providers: OllamaProvider[] = [];

/** Starts a stand-in on a free loopback port; stopped by `cleanup` (call it in afterEach). */
export async function startStandin(options: StandinOptions = {}): Promise<{ server: StandinServer; url: string; port: number }> {
  // a GPU large enough for every test model's declared footprint (the stand-in's own default is 24 GiB):
  // detection tests read /api/ps's size_vram, which a smaller GPU would report as partly offloaded
  const server = new StandinServer({ pull: { stepMs: 0 }, gpuVramBytes: 1e12, ...options });
  servers.push(server);
  const { url, port } = await server.start(0);
  return { server, url, port };
}

/**
 * The same stand-in seen as a REMOTE GPU server: an IPv4-mapped IPv6 address reaches loopback,
 * but is not a loopback name, so the provider routes and merges as it would for `gpu-server`.
 */
export const remoteUrl = (port: number): string => `http://[::ffff:127.0.0.1]:${port}`;

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface LogLine {
  level: 'log' | 'warn';
  message: string;
}

export interface TestProvider {
  provider: OllamaProvider;
  logs: LogLine[];
}

/** A provider with test-sized budgets; every option can be overridden. */
export function makeProvider(host: string, overrides: Partial<OllamaProviderOptions> = {}): TestProvider {
  const logs: LogLine[] = [];
  const provider = new OllamaProvider({
    host,
    localHost: host,
    requestTimeoutMs: 10_000,
    idleTimeoutMs: 5_000,
    firstByteTimeoutMs: 5_000,
    numPredict: 256,
    slotWaitTimeoutMs: 10_000,
    retryDelayScale: 0.01,
    log: (level, message) => logs.push({ level, message }),
    ...overrides,
  });
  providers.push(provider);
  return { provider, logs };
}

export async function cleanup(): Promise<void> {
  for (const p of providers.splice(0)) p.models.dispose();
  await Promise.all(servers.splice(0).map((s) => s.stop()));
}

export interface RecordedEvent {
  type: string;
  payload: Record<string, unknown>;
}

/** An onEvent sink that keeps what it got. */
export function eventRecorder(): { events: RecordedEvent[]; sink: ProviderEventSink; of: (type: string) => Record<string, unknown>[] } {
  const events: RecordedEvent[] = [];
  return {
    events,
    sink: (type, payload) => events.push({ type, payload }),
    of: (type) => events.filter((e) => e.type === type).map((e) => e.payload),
  };
}

export const chatRequests = (server: StandinServer): StandinRequestRecord[] => server.requests.filter((r) => r.path === '/api/chat');
export const requestsTo = (server: StandinServer, path: string, method?: string): StandinRequestRecord[] =>
  server.requests.filter((r) => r.path === path && (method === undefined || r.method === method));

/** Awaits a promise that must reject and returns the ProviderError it rejected with. */
export async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (e) {
    if (ProviderError.isInstance(e)) return e;
    throw new Error(`expected a ProviderError, got ${(e as Error)?.name}: ${(e as Error)?.message}`);
  }
  throw new Error('expected a rejection');
}

/** Settles once the microtask queue and one macrotask turn have run (no wall-clock assumption). */
export const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A promise with its state readable synchronously (a rejection is kept for `promise`, never unhandled). */
export function tracked<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean; value: () => T | undefined } {
  let done = false;
  let value: T | undefined;
  const p = promise.then(
    (v) => {
      done = true;
      value = v;
      return v;
    },
    (e: unknown) => {
      done = true;
      throw e;
    },
  );
  p.catch(() => undefined);
  return { promise: p, settled: () => done, value: () => value };
}

export const user = (content: string) => [{ role: 'user' as const, content }];

export const READ_FILE: LlmToolDefinition = {
  name: 'read_file',
  description: 'Read a file from the workspace',
  parameters: { type: 'object', properties: { path: { type: 'string', description: 'file path' } }, required: ['path'] },
};

export const WRITE_FILE: LlmToolDefinition = {
  name: 'write_file',
  description: 'Write a file in the workspace',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' }, content: { type: 'string' } },
    required: ['path', 'content'],
  },
};

/** A local model for the catalog; weight follows parameterSize (<8B: 1, 8–14B: 2, ≥14B: 3). */
export function localModel(name: string, extra: Partial<StandinModel> = {}): StandinModel {
  return {
    name,
    family: 'llama',
    parameterSize: '1.2B',
    quantization: 'Q4_K_M',
    capabilities: ['completion', 'tools'],
    sizeBytes: 800_000_000,
    vramBytes: 1_000_000_000,
    contextLength: 8192,
    ...extra,
  };
}

export function cloudModel(name: string, extra: Partial<StandinModel> = {}): StandinModel {
  return {
    name,
    family: 'gptoss',
    parameterSize: '116.8B',
    quantization: 'MXFP4',
    capabilities: ['completion', 'tools', 'thinking'],
    sizeBytes: 384,
    vramBytes: 0,
    contextLength: 131_072,
    cloud: true,
    ...extra,
  };
}
