// `loupe standin`: run the stand-in in the foreground until SIGINT/SIGTERM. The lead's command
// loads the scenario and calls this; signals are injectable so tests need not signal the process.
import type { EventEmitter } from 'node:events';

import type { StandinModel, StandinOptions, StandinScript } from './standin-script';
import { StandinServer } from './standin-server';
import type { StandinSimModel } from './standin-sim';

export interface StandinCliOptions {
  script?: StandinScript;
  catalog?: StandinModel[];
  /** simulated models (`sim:<persona>`) by name, each following its plan (standin-sim.ts) */
  sim?: Record<string, StandinSimModel>;
  port?: number;
  host?: string;
  /** extra server options (maxQueue, version, pull pacing, defaultKeepAlive, requestLogLimit) */
  server?: Omit<StandinOptions, 'script' | 'catalog'>;
  /** where status lines go; default console.log */
  log?: (line: string) => void;
  /** where SIGINT/SIGTERM come from; default process */
  signals?: Pick<EventEmitter, 'once' | 'off'>;
}

export interface StandinCliHandle {
  server: StandinServer;
  url: string;
  port: number;
  /** stops the server (as a signal would) */
  stop(): Promise<void>;
  /** resolves once the server has stopped, by signal or stop() */
  closed: Promise<void>;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Requests the foreground stand-in keeps in its log: nothing outside the process reads it, and kept
 * whole it grew by about 3.6 KB a request, without end on a `--loop` server.
 */
export const STANDIN_CLI_REQUEST_LOG_LIMIT = 1_000;

export async function runStandinCli(opts: StandinCliOptions = {}): Promise<StandinCliHandle> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const signals = opts.signals ?? process;
  const server = new StandinServer({
    requestLogLimit: STANDIN_CLI_REQUEST_LOG_LIMIT,
    ...opts.server,
    script: opts.script,
    catalog: opts.catalog,
    sim: opts.sim,
  });
  const { url, port } = await server.start(opts.port ?? 11434, opts.host ?? '127.0.0.1');
  log(`Ollama stand-in listening on ${url}`);

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let stopping: Promise<void> | undefined;
  const onSignal = (signal: string): void => {
    log(`Ollama stand-in: ${signal} received, stopping`);
    void stop();
  };
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      for (const s of SIGNALS) signals.off(s, onSignal);
      await server.stop();
      log('Ollama stand-in stopped');
      resolveClosed();
    })();
    return stopping;
  };
  for (const s of SIGNALS) signals.once(s, onSignal);
  return { server, url, port, stop, closed };
}
