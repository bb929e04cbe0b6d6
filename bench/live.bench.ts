// The live gateway under load: 50 socket.io subscribers (in a child process, as browsers would be)
// follow one session over the real HTTP app; journal-to-subscriber latency of each live event
// (arrival − the journal's createdAt), and the loop's time per iteration with and without them.
// Each session waits on an approval first, so subscribers catch up before the measured part runs.
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { NestFactory } from '@nestjs/core';
import { ADMIN_TOKEN } from '../src/admin/admin-auth.guard';
import { configureHttpApp } from '../src/admin/http/configure-http';
import { AppModule } from '../src/app.module';
import type { LoupeConfig } from '../src/config/loupe-config';
import { ProcessManager } from '../src/process/process-manager.service';
import { median, type BenchFigure, type BenchSuite } from './run-benchmarks';

const CLIENTS = 50;
const ITERATIONS = 60;
const RUNS = 5;

/** a gated write, then ITERATIONS calls that trip no detector (or, big, reads of 100 KB files), then an answer */
function script(big: boolean): unknown[] {
  const turns: unknown[] = [{ tool_calls: [{ name: 'write_file', arguments: { path: 'gate.txt', content: 'go' } }] }];
  for (let i = 0; i < ITERATIONS; i++) {
    const call = big
      ? { name: 'read_file', arguments: { path: `big${i % 4}.txt` } }
      : i % 2
        ? { name: 'list_files', arguments: { path: '.' } }
        : { name: 'read_file', arguments: { path: `missing-${i}.txt` } };
    turns.push({ tool_calls: [call] });
  }
  return [...turns, { content: 'Done.' }];
}

const BIG_FILES = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`big${i}.txt`, `${'x'.repeat(199)}\n`.repeat(500)]));

interface Mode {
  clients: number;
  /** the subscribers stop reading their TCP connection once caught up (a frozen tab) */
  stalled?: boolean;
  big?: boolean;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

function message<T>(child: ChildProcess, kind: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const on = (m: { kind: string; message?: string }) => {
      if (m.kind === kind) {
        child.off('message', on);
        resolve(m as T);
      } else if (m.kind === 'error') reject(new Error(`subscriber: ${m.message}`));
    };
    child.on('message', on);
    child.once('exit', (code) => code && reject(new Error(`subscribers exited with ${code}`)));
  });
}

export const liveSuite: BenchSuite = {
  name: 'live',
  description: `${CLIENTS} socket.io subscribers on one session of ${ITERATIONS} tool iterations (scripted stand-in), ${RUNS} runs with and without them`,
  run: async (config: LoupeConfig) => {
    const app = await NestFactory.create(AppModule.forRoot(config, { http: true }), { logger: ['error'] });
    configureHttpApp(app, config);
    await app.listen(0, '127.0.0.1');
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const token = app.get<string>(ADMIN_TOKEN);
    const call = async (method: string, route: string, body?: unknown) => {
      const res = await fetch(`${url}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };

    /** one session; with subscribers, their latencies too */
    const session = async ({ clients, stalled = false, big = false }: Mode) => {
      const { sessionId } = (await call('POST', '/api/sessions', {
        prompt: 'Work through the files.',
        permissions: { tools: { write_file: 'ask' } },
        options: { repeat_threshold: 0, same_tool_threshold: 0, cycle_repetitions: 0, max_tool_iterations: ITERATIONS + 10 },
        files: big ? BIG_FILES : {},
        script: script(big),
      })) as { sessionId: string };
      let pending: Array<{ callId: string }> = [];
      while (!pending.length) {
        pending = (await call('GET', `/api/approvals?session=${sessionId}`)) as unknown as Array<{ callId: string }>;
        if (!pending.length) await new Promise((r) => setTimeout(r, 5));
      }
      let child: ChildProcess | undefined;
      let done: Promise<{ latencies: number[] }> | undefined;
      if (clients) {
        child = fork(path.join(__dirname, 'live-subscribers.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        const ready = message(child, 'ready');
        done = stalled ? undefined : message<{ latencies: number[] }>(child, 'done');
        child.send({ url, token, sessionId, clients, stalled });
        await ready;
        child.send({ kind: 'go' });
      }
      const handle = app.get(ProcessManager).get(sessionId)!;
      const started = performance.now();
      const cpu = process.cpuUsage();
      await call('POST', `/api/approvals/${pending[0].callId}`, { approved: true });
      const result = await handle.done;
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      if (result.terminationReason !== 'completed') throw new Error(`bench session ended with ${result.terminationReason}`);
      const latencies = done ? (await done).latencies : [];
      child?.kill();
      const n = result.iterations - 1;
      return { msPerIteration: ms / n, cpuPerIteration: (used.user + used.system) / 1000 / n, latencies: latencies as number[] };
    };

    try {
      await session({ clients: 0 }); // warm-up
      await session({ clients: CLIENTS });
      const without: number[] = [];
      const withSubs: number[] = [];
      const cpuWithout: number[] = [];
      const cpuWith: number[] = [];
      const latencies: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const alone = await session({ clients: 0 });
        without.push(alone.msPerIteration);
        cpuWithout.push(alone.cpuPerIteration);
        const s = await session({ clients: CLIENTS });
        withSubs.push(s.msPerIteration);
        cpuWith.push(s.cpuPerIteration);
        latencies.push(...s.latencies);
      }
      // megabytes of tool output: one subscriber that stops reading (its buffer is dropped, it would resync) vs none
      const bigAlone: number[] = [];
      const bigStalled: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        bigAlone.push((await session({ clients: 0, big: true })).msPerIteration);
        bigStalled.push((await session({ clients: 1, stalled: true, big: true })).msPerIteration);
      }
      const figures: BenchFigure[] = [
        { name: `journal-to-subscriber latency p50, ${CLIENTS} subscribers`, value: percentile(latencies, 50), unit: 'ms' },
        {
          name: `journal-to-subscriber latency p99, ${CLIENTS} subscribers`,
          value: percentile(latencies, 99),
          unit: 'ms',
          note: `${latencies.length} deliveries; createdAt has 1 ms resolution`,
        },
        { name: 'time per iteration, no subscribers (median)', value: median(without), unit: 'ms' },
        {
          name: `time per iteration, ${CLIENTS} subscribers (median)`,
          value: median(withSubs),
          unit: 'ms',
          note: `with/without ratio ${(median(withSubs) / median(without)).toFixed(2)}`,
        },
        { name: 'Loupe process CPU per iteration, no subscribers (median)', value: median(cpuWithout), unit: 'ms' },
        {
          name: `Loupe process CPU per iteration, ${CLIENTS} subscribers (median)`,
          value: median(cpuWith),
          unit: 'ms',
          note: 'the fan-out to the sockets; the subscribers run in another process',
        },
        { name: 'time per iteration, 100 KB reads, no subscribers (median)', value: median(bigAlone), unit: 'ms' },
        {
          name: 'time per iteration, 100 KB reads, 1 stalled subscriber (median)',
          value: median(bigStalled),
          unit: 'ms',
          note: `stalled/none ratio ${(median(bigStalled) / median(bigAlone)).toFixed(2)}`,
        },
      ];
      return figures;
    } finally {
      await app.close();
    }
  },
};
