// The live gateway under load: 50 socket.io subscribers (in a child process, as browsers would be)
// follow one session over the real HTTP app; journal-to-subscriber latency of each live event
// (arrival − the journal's createdAt), and the loop's time per iteration with and without them,
// subscribed as the viewer is (one session:batch per tick) and event by event. Then 500 subscribers
// across 50 sessions that run at once. Each session waits on an approval first, so subscribers
// catch up before the measured part runs.
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { NestFactory } from '@nestjs/core';
import { ADMIN_TOKEN } from '../src/admin/admin-auth.guard';
import { configureHttpApp } from '../src/admin/http/configure-http';
import { AppModule } from '../src/app.module';
import type { LoupeConfig } from '../src/config/loupe-config';
import { ProcessManager } from '../src/process/process-manager.service';
import { median, range, type BenchFigure, type BenchSuite } from './run-benchmarks';

const CLIENTS = 50;
const ITERATIONS = 60;
const RUNS = 5;
/** the many-sessions case: subscribers per session, sessions at once, and the subscriber processes they are spread over */
const MANY = { perSession: 10, sessions: 50, processes: 5 };
/** a part that has not finished by then is reported (and the rest skipped) rather than waited on */
const PART_TIMEOUT_MS = { warmup: 60_000, fifty: 180_000, many: 240_000, big: 120_000 };

const progress = (m: string) => process.stderr.write(`live: ${m}\n`);

class PartTimeout extends Error {}

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
  /** sessions at once (the subscribers are spread evenly over them) */
  sessions?: number;
  clients: number;
  /** subscribe as the viewer does: one session:batch per tick */
  batch?: boolean;
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
    // an exit before the message (whatever its code) would otherwise leave the bench waiting for ever
    child.once('exit', (code) => reject(new Error(`subscribers exited with ${code} before "${kind}"`)));
  });
}

/** Runs one part of the bench, or rejects with PartTimeout naming it once `ms` have passed. */
async function part<T>(name: string, ms: number, body: () => Promise<T>, onTimeout: () => void): Promise<T> {
  progress(`${name}…`);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new PartTimeout(`part "${name}" did not finish in ${ms / 1000} s`));
    }, ms);
  });
  try {
    return await Promise.race([body(), timeout]);
  } finally {
    clearTimeout(timer);
    progress(`${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
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

    /** subscriber processes alive now (killed when a part times out) */
    const alive = new Set<ChildProcess>();
    const killAll = () => {
      for (const child of alive) child.kill();
      alive.clear();
    };

    /** `sessions` sessions at once; with subscribers, their latencies too */
    const session = async ({ sessions = 1, clients, stalled = false, big = false, batch = false }: Mode) => {
      const ids: string[] = [];
      for (let i = 0; i < sessions; i++) {
        const { sessionId } = (await call('POST', '/api/sessions', {
          prompt: 'Work through the files.',
          permissions: { tools: { write_file: 'ask' } },
          options: { repeat_threshold: 0, same_tool_threshold: 0, cycle_repetitions: 0, max_tool_iterations: ITERATIONS + 10 },
          files: big ? BIG_FILES : {},
          script: script(big),
        })) as { sessionId: string };
        ids.push(sessionId);
      }
      const gates: string[] = [];
      for (const sessionId of ids) {
        let pending: Array<{ callId: string }> = [];
        while (!pending.length) {
          pending = (await call('GET', `/api/approvals?session=${sessionId}`)) as unknown as Array<{ callId: string }>;
          if (!pending.length) await new Promise((r) => setTimeout(r, 5));
        }
        gates.push(pending[0].callId);
      }
      const children: ChildProcess[] = [];
      const done: Array<Promise<{ latencies: number[] }>> = [];
      if (clients) {
        // the sessions (and their subscribers) split evenly over the subscriber processes
        const processes = Math.min(sessions, sessions > 1 ? MANY.processes : 1);
        const ready: Array<Promise<unknown>> = [];
        for (let p = 0; p < processes; p++) {
          const mine = ids.filter((_, i) => i % processes === p);
          const child = fork(path.join(__dirname, 'live-subscribers.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
          children.push(child);
          alive.add(child);
          ready.push(message(child, 'ready'));
          if (!stalled) done.push(message<{ latencies: number[] }>(child, 'done'));
          // awaited later: a child killed by a part's timeout before then must not be an unhandled rejection
          for (const p of [ready[ready.length - 1], ...done.slice(-1)]) p.catch(() => undefined);
          child.send({ url, token, sessions: mine, clients: (clients / sessions) * mine.length, stalled, batch });
        }
        await Promise.all(ready);
        for (const child of children) child.send({ kind: 'go' });
      }
      const handles = ids.map((id) => app.get(ProcessManager).get(id)!);
      const started = performance.now();
      const cpu = process.cpuUsage();
      await Promise.all(gates.map((callId) => call('POST', `/api/approvals/${callId}`, { approved: true })));
      const results = await Promise.all(handles.map((h) => h.done));
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      for (const result of results)
        if (result.terminationReason !== 'completed') throw new Error(`bench session ended with ${result.terminationReason}`);
      const latencies = (await Promise.all(done)).flatMap((d) => d.latencies);
      for (const child of children) {
        child.kill();
        alive.delete(child);
      }
      const n = results.reduce((sum, r) => sum + r.iterations - 1, 0);
      return { msPerIteration: ms / n, cpuPerIteration: (used.user + used.system) / 1000 / n, latencies };
    };

    const figures: BenchFigure[] = [];
    try {
      await part(
        'warm-up',
        PART_TIMEOUT_MS.warmup,
        async () => {
          await session({ clients: 0 });
          await session({ clients: CLIENTS, batch: true });
        },
        killAll,
      );
      await part(
        `${CLIENTS} subscribers`,
        PART_TIMEOUT_MS.fifty,
        async () => {
          const without: number[] = [];
          const withSubs: number[] = [];
          const withEach: number[] = [];
          const cpuWithout: number[] = [];
          const cpuWith: number[] = [];
          const cpuEach: number[] = [];
          const latencies: number[] = [];
          for (let r = 0; r < RUNS; r++) {
            const alone = await session({ clients: 0 });
            without.push(alone.msPerIteration);
            cpuWithout.push(alone.cpuPerIteration);
            const s = await session({ clients: CLIENTS, batch: true });
            withSubs.push(s.msPerIteration);
            cpuWith.push(s.cpuPerIteration);
            latencies.push(...s.latencies);
            const each = await session({ clients: CLIENTS });
            withEach.push(each.msPerIteration);
            cpuEach.push(each.cpuPerIteration);
          }
          figures.push(
            { name: `journal-to-subscriber latency p50, ${CLIENTS} subscribers`, value: percentile(latencies, 50), unit: 'ms' },
            {
              name: `journal-to-subscriber latency p99, ${CLIENTS} subscribers`,
              value: percentile(latencies, 99),
              unit: 'ms',
              note: `${latencies.length} deliveries; createdAt has 1 ms resolution`,
            },
            { name: 'time per iteration, no subscribers (median)', value: median(without), unit: 'ms', note: range(without) },
            {
              name: `time per iteration, ${CLIENTS} subscribers (median)`,
              value: median(withSubs),
              unit: 'ms',
              note: `with/without ratio ${(median(withSubs) / median(without)).toFixed(2)}; ${range(withSubs)}; batched, as the viewer subscribes`,
            },
            {
              name: `time per iteration, ${CLIENTS} subscribers event by event`,
              value: median(withEach),
              unit: 'ms',
              note: `with/without ratio ${(median(withEach) / median(without)).toFixed(2)}; ${range(withEach)}`,
            },
            {
              name: 'Loupe process CPU per iteration, no subscribers (median)',
              value: median(cpuWithout),
              unit: 'ms',
              note: range(cpuWithout),
            },
            {
              name: `Loupe process CPU per iteration, ${CLIENTS} subscribers (median)`,
              value: median(cpuWith),
              unit: 'ms',
              note: `with/without ratio ${(median(cpuWith) / median(cpuWithout)).toFixed(2)}; ${range(cpuWith)}; batched; the subscribers run in another process`,
            },
            {
              name: `Loupe process CPU per iteration, ${CLIENTS} subscribers event by event`,
              value: median(cpuEach),
              unit: 'ms',
              note: `with/without ratio ${(median(cpuEach) / median(cpuWithout)).toFixed(2)}; ${range(cpuEach)}`,
            },
          );
        },
        killAll,
      );
      // many sessions at once, each with its subscribers, against the same sessions with none
      await part(
        `${MANY.sessions * MANY.perSession} subscribers on ${MANY.sessions} sessions`,
        PART_TIMEOUT_MS.many,
        async () => {
          const manyAlone = await session({ sessions: MANY.sessions, clients: 0 });
          const many = await session({ sessions: MANY.sessions, clients: MANY.sessions * MANY.perSession, batch: true });
          figures.push(
            {
              name: `latency p50, ${MANY.sessions * MANY.perSession} subscribers on ${MANY.sessions} sessions`,
              value: percentile(many.latencies, 50),
              unit: 'ms',
            },
            {
              name: `latency p99, ${MANY.sessions * MANY.perSession} subscribers on ${MANY.sessions} sessions`,
              value: percentile(many.latencies, 99),
              unit: 'ms',
              note: `${many.latencies.length} deliveries; ${MANY.sessions} sessions at once, ${MANY.processes} subscriber processes`,
            },
            {
              name: `time per iteration, ${MANY.sessions} sessions at once, ${MANY.sessions * MANY.perSession} subscribers`,
              value: many.msPerIteration,
              unit: 'ms',
              note: `none: ${manyAlone.msPerIteration.toFixed(2)} ms, ratio ${(many.msPerIteration / manyAlone.msPerIteration).toFixed(2)}`,
            },
            {
              name: `Loupe process CPU per iteration, ${MANY.sessions} sessions, ${MANY.sessions * MANY.perSession} subscribers`,
              value: many.cpuPerIteration,
              unit: 'ms',
              note: `none: ${manyAlone.cpuPerIteration.toFixed(2)} ms, ratio ${(many.cpuPerIteration / manyAlone.cpuPerIteration).toFixed(2)}`,
            },
          );
        },
        killAll,
      );
      // megabytes of tool output: one subscriber that stops reading (its buffer is dropped, it would resync) vs none
      await part(
        '100 KB reads, a stalled subscriber',
        PART_TIMEOUT_MS.big,
        async () => {
          const bigAlone: number[] = [];
          const bigStalled: number[] = [];
          for (let r = 0; r < RUNS; r++) {
            bigAlone.push((await session({ clients: 0, big: true })).msPerIteration);
            bigStalled.push((await session({ clients: 1, stalled: true, big: true })).msPerIteration);
          }
          figures.push(
            { name: 'time per iteration, 100 KB reads, no subscribers (median)', value: median(bigAlone), unit: 'ms' },
            {
              name: 'time per iteration, 100 KB reads, 1 stalled subscriber (median)',
              value: median(bigStalled),
              unit: 'ms',
              note: `stalled/none ratio ${(median(bigStalled) / median(bigAlone)).toFixed(2)}`,
            },
          );
        },
        killAll,
      );
      return figures;
    } catch (e) {
      if (!(e instanceof PartTimeout)) throw e;
      // what finished is still reported; the part that hung is named, and the bench exits non-zero
      progress(`${e.message}; the parts after it were skipped`);
      process.exitCode = 1;
      return [...figures, { name: `TIMED OUT: ${e.message}`, value: NaN, unit: '', note: 'later parts skipped' }];
    } finally {
      await app.close();
    }
  },
};
