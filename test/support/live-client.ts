// A socket.io client of the live gateway for tests: connects with the token, records everything
// it receives, and answers with acknowledgements as promises.
import { io, type Socket } from 'socket.io-client';
import type { LiveEvent } from '../../src/live/live-wire';
import { API_TOKEN } from './api-app';

export interface Received {
  event: string;
  body: Record<string, unknown>;
}

export class LiveClient {
  readonly received: Received[] = [];
  readonly socket: Socket;

  constructor(url: string, opts: { token?: string | null; model?: string; transports?: string[] } = {}) {
    this.socket = io(url, {
      auth: opts.token === null ? {} : { token: opts.token ?? API_TOKEN },
      query: opts.model ? { model: opts.model } : {},
      transports: opts.transports ?? ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    this.socket.onAny((event: string, body: Record<string, unknown>) => this.received.push({ event, body }));
  }

  connected(): Promise<Received> {
    return new Promise((resolve, reject) => {
      this.socket.once('connect_error', (e) => reject(e));
      this.socket.once('system:ready', (body: Record<string, unknown>) => resolve({ event: 'system:ready', body }));
    });
  }

  ask(event: string, body: unknown): Promise<Record<string, unknown>> {
    return this.socket.timeout(10_000).emitWithAck(event, body) as Promise<Record<string, unknown>>;
  }

  /** every journal event received for a session, in arrival order */
  events(sessionId: string): LiveEvent[] {
    return this.received
      .filter((r) => r.event === 'session:events' && r.body.sessionId === sessionId)
      .flatMap((r) => r.body.events as LiveEvent[]);
  }

  of(event: string): Array<Record<string, unknown>> {
    return this.received.filter((r) => r.event === event).map((r) => r.body);
  }

  async until<T>(probe: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = probe();
      if (v !== undefined && v !== false) return v;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; received: ${this.received.map((r) => r.event).join(', ')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  close(): void {
    this.socket.close();
  }
}
