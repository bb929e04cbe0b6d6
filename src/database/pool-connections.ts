// The pool's connections, so that closing the pool can wait until their sockets have closed.
// pg-pool's end() resolves once it has asked each idle connection to close (a goodbye and a
// half-close), not once the server has hung up; a connection whose server never hangs up keeps the
// process alive after the application has closed, with nothing saying why.
import type { Socket } from 'node:net';
import { Client, type ClientConfig } from 'pg';

/** A connection still open when the wait ran out: what it last asked, so a leak names itself. */
export interface LingeringConnection {
  lastQuery: string;
}

interface ClientInternals {
  connection: { stream: Socket; _connecting?: boolean };
}

export class PoolConnections {
  /** each connection → its socket (the TCP one, under TLS too) and what it last ran (as passed: read only for a report) */
  private readonly open = new Map<Client, { socket: Socket; lastQuery: unknown }>();

  /** The Client class for the pool's `Client` option: each one it makes is noted until its socket closes. */
  clientClass(): typeof Client {
    const open = this.open;
    return class NotedClient extends Client {
      constructor(config?: string | ClientConfig) {
        super(config);
        const socket = (this as unknown as ClientInternals).connection.stream;
        const note: { socket: Socket; lastQuery: unknown } = { socket, lastQuery: undefined };
        open.set(this, note);
        socket.once('close', () => open.delete(this));
        const query = this.query.bind(this) as (...args: unknown[]) => unknown;
        // what it last ran, for the report of one that will not close
        (this as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
          // the text only, by reference (no copy; a config's values are not kept alive)
          const q = args[0];
          note.lastQuery = typeof q === 'string' ? q : (q as { text?: unknown } | undefined)?.text;
          return query(...args);
        };
      }
    };
  }

  /**
   * Resolves once every connection's socket has closed, or after `timeoutMs`: those still open
   * then are cut (their sockets destroyed) and returned.
   */
  async closed(timeoutMs: number): Promise<LingeringConnection[]> {
    const waiting = [...this.open].filter(([client, { socket }]) => this.opened(client) && !socket.closed);
    if (!waiting.length) return [];
    let timer: NodeJS.Timeout | undefined;
    const allClosed = Promise.all(waiting.map(([, { socket }]) => new Promise((resolve) => socket.once('close', resolve))));
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const outcome = await Promise.race([allClosed, timedOut]);
    clearTimeout(timer);
    if (outcome !== 'timeout') return [];
    const lingering = waiting.filter(([, { socket }]) => !socket.closed);
    await Promise.all(lingering.map(([, { socket }]) => new Promise((resolve) => socket.once('close', resolve).destroy())));
    return lingering.map(([, { lastQuery }]) => ({ lastQuery: queryText(lastQuery) }));
  }

  /** whether it ever opened its socket (one that never did has nothing to wait for) */
  private opened(client: Client): boolean {
    return Boolean((client as unknown as ClientInternals).connection._connecting);
  }
}

/** A query's text, shortened to one line (none: it ran nothing, or only a submittable such as a COPY stream). */
function queryText(text: unknown): string {
  return typeof text === 'string' ? text.replace(/\s+/g, ' ').slice(0, 120) : '(no query text)';
}
