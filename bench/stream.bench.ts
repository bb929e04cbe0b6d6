// Client-side cost of one streamed /api/chat call: CPU and wall per call of the provider's stream
// path (the `ollama` client on Loupe's node:http fetch), against a stand-in in its own process so
// only the client is measured; beside it the same request read with the global fetch (undici) and
// a body reader, the floor the provider's previous transport was built on.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { streamChat } from '../src/provider/ollama/ollama-chat-stream';
import { startStandin } from './child-standin';
import { median, type BenchFigure } from './run-benchmarks';

const CALLS = 1_000;
const RUNS = 5;
const REPLY = 'The task is done, and this reply has a few more words so that it streams as several chunks.';
const REQUEST = { model: 'llama3.1:8b', messages: [{ role: 'user' as const, content: 'hi' }] };
const BUDGETS = { firstByteTimeoutMs: 30_000, idleTimeoutMs: 30_000, requestTimeoutMs: 60_000 };

async function viaGlobalFetch(url: string): Promise<number> {
  const res = await fetch(`${url}/api/chat`, {
    method: 'POST',
    body: JSON.stringify({ ...REQUEST, stream: true }),
    headers: { 'content-type': 'application/json' },
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      if (nl > 0) {
        JSON.parse(buffer.slice(0, nl));
        chunks++;
      }
      buffer = buffer.slice(nl + 1);
    }
  }
  return chunks;
}

async function measure(call: () => Promise<number>): Promise<{ cpuUs: number; wallMs: number; chunks: number }> {
  for (let i = 0; i < 100; i++) await call();
  const cpu: number[] = [];
  const wall: number[] = [];
  let chunks = 0;
  for (let r = 0; r < RUNS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < CALLS; i++) chunks = await call();
    const c = process.cpuUsage(c0);
    wall.push((performance.now() - t0) / CALLS);
    cpu.push((c.user + c.system) / CALLS);
  }
  return { cpuUs: median(cpu), wallMs: median(wall), chunks };
}

export async function benchStream(): Promise<BenchFigure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-stream-'));
  const file = path.join(dir, 'reply.yaml');
  fs.writeFileSync(
    file,
    `id: bench/stream\ntitle: stream\nspec: bench\nprompt: hi\nscript:\n  - content: ${REPLY}\nexpect:\n  - termination: completed\n`,
  );
  const standin = await startStandin(file);
  try {
    const loupe = await measure(async () => (await streamChat(standin.url, REQUEST, BUDGETS, {})).chunks);
    const floor = await measure(() => viaGlobalFetch(standin.url));
    if (loupe.chunks !== floor.chunks) throw new Error(`bench stream: ${loupe.chunks} chunks via the provider, ${floor.chunks} via fetch`);
    return [
      { name: 'client CPU per streamed chat call (provider)', value: loupe.cpuUs, unit: 'µs', note: `${loupe.chunks} chunks per reply` },
      { name: 'wall per streamed chat call (provider)', value: loupe.wallMs, unit: 'ms' },
      {
        name: 'client CPU per call, global fetch + body reader',
        value: floor.cpuUs,
        unit: 'µs',
        note: `provider/fetch ratio ${(loupe.cpuUs / floor.cpuUs).toFixed(2)}`,
      },
    ];
  } finally {
    await standin.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
