// Throughput of scripted requests through the OllamaProvider's slot limiter, against a stand-in
// whose model serves P requests at once and takes about L ms per turn. Each request is the real
// sequence acquireSlot → complete (streamed over HTTP through the ollama client) → releaseSlot,
// with the provider's maxParallel set to P, so the client admits exactly what the server can run.
// The figure is measured requests/s as a ratio of the ideal P / L: 1.0 means the slot hand-off,
// HTTP and streaming add nothing; the gap is the per-request overhead at that latency.
import { performance } from 'node:perf_hooks';

import { OllamaProvider } from '../src/provider/ollama/ollama-provider';
import { StandinServer } from '../src/standin/standin-server';
import type { StandinModel } from '../src/standin/standin-script';
import type { BenchFigure } from './run-benchmarks';
import { countTokens } from '../src/standin/standin-tokenizer';

export type { BenchFigure };

export interface SlotThroughputOptions {
  /** (P, L ms) pairs to measure */
  pairs?: Array<[parallel: number, latencyMs: number]>;
  /** measured runs per pair (the median is reported), after one warm-up run */
  runs?: number;
  /** requests per run = wavesPerRun × P */
  wavesPerRun?: number;
  /** words per scripted reply; L is spread evenly over them by tokensPerSecond pacing */
  words?: number;
}

const DEFAULT_PAIRS: Array<[number, number]> = [
  [1, 50],
  [2, 50],
  [4, 50],
  [8, 50],
  [2, 200],
  [4, 200],
];
const MODEL = 'bench:1b';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

interface RunResult {
  requestsPerSecond: number;
  wallMsPerRequest: number;
  /** most requests the server generated at once (from its own log) */
  serverConcurrency: number;
  /** requests that had to wait inside the server for a slot (0 when the client limits well) */
  serverQueued: number;
}

async function oneRun(provider: OllamaProvider, server: StandinServer, requests: number): Promise<RunResult> {
  const before = server.requests.length;
  const walls: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: requests }, async (_, i) => {
      if (!(await provider.acquireSlot(MODEL))) throw new Error('slot not granted');
      try {
        const result = await provider.complete({ model: MODEL, messages: [{ role: 'user', content: `request ${i}` }] });
        walls.push(result.timings.wallMs);
      } finally {
        await provider.releaseSlot(MODEL);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1_000;
  await server.settled();
  const chats = server.requests.slice(before).filter((r) => r.path === '/api/chat');
  if (chats.length !== requests || chats.some((r) => r.status !== 200)) throw new Error('bench run: unexpected server responses');
  const edges = chats
    .flatMap((r) => [
      { at: r.slotAcquiredAt!, d: 1 },
      { at: r.slotReleasedAt!, d: -1 },
    ])
    .sort((a, b) => a.at - b.at || a.d - b.d);
  let current = 0;
  let peak = 0;
  for (const e of edges) peak = Math.max(peak, (current += e.d));
  return {
    requestsPerSecond: requests / seconds,
    wallMsPerRequest: median(walls),
    serverConcurrency: peak,
    serverQueued: chats.filter((r) => r.queued).length,
  };
}

async function measurePair(
  parallel: number,
  latencyMs: number,
  opts: Required<Omit<SlotThroughputOptions, 'pairs'>>,
): Promise<BenchFigure> {
  const content = Array.from({ length: opts.words }, (_, i) => `w${i}`).join(' ');
  const model: StandinModel = {
    name: MODEL,
    family: 'llama',
    parameterSize: '1.0B',
    capabilities: ['completion', 'tools'],
    vramBytes: 1e9,
    parallel,
    // paced by the stand-in's own token count (`w0` is two tokens): L is then the turn's real length
    tokensPerSecond: (countTokens(content) * 1_000) / latencyMs,
  };
  const server = new StandinServer({ catalog: [model], script: { turns: { '*': [{ content }] }, loop: true } });
  const { url } = await server.start(0);
  const provider = new OllamaProvider({
    host: url,
    localHost: url,
    maxParallel: parallel,
    numGpu: -1,
    numPredict: 256,
    numBatch: 512,
    requestTimeoutMs: 60_000,
    idleTimeoutMs: 30_000,
    firstByteTimeoutMs: 30_000,
    slotWaitTimeoutMs: 600_000,
  });
  try {
    const requests = opts.wavesPerRun * parallel;
    await oneRun(provider, server, requests); // warm-up: model load, /api/show cache, JIT
    const results: RunResult[] = [];
    for (let r = 0; r < opts.runs; r++) results.push(await oneRun(provider, server, requests));
    const ideal = (parallel * 1_000) / latencyMs;
    const rps = median(results.map((r) => r.requestsPerSecond));
    const ratio = median(results.map((r) => r.requestsPerSecond / ideal));
    return {
      name: `provider.slot-throughput P=${parallel} L=${latencyMs}ms`,
      value: Math.round(ratio * 1_000) / 1_000,
      unit: 'ratio of ideal P/L',
      note: [
        `${rps.toFixed(2)} req/s vs ideal ${ideal.toFixed(2)} req/s`,
        `median request wall ${median(results.map((r) => r.wallMsPerRequest)).toFixed(1)} ms (scripted L ${latencyMs} ms)`,
        `${requests} requests/run, median of ${opts.runs} runs`,
        `server peak concurrency ${Math.max(...results.map((r) => r.serverConcurrency))}/${parallel}`,
        `server-side queued ${results.reduce((n, r) => n + r.serverQueued, 0)}`,
      ].join('; '),
    };
  } finally {
    provider.models.dispose();
    await server.stop();
  }
}

export async function benchSlotThroughput(options: SlotThroughputOptions = {}): Promise<BenchFigure[]> {
  const opts = { runs: options.runs ?? 5, wavesPerRun: options.wavesPerRun ?? 8, words: options.words ?? 5 };
  const figures: BenchFigure[] = [];
  for (const [parallel, latencyMs] of options.pairs ?? DEFAULT_PAIRS) figures.push(await measurePair(parallel, latencyMs, opts));
  return figures;
}

if (require.main === module) {
  benchSlotThroughput().then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
