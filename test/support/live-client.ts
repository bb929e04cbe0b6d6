// A socket.io client of the live gateway for tests: connects with the token, records everything
// it receives, and answers with acknowledgements as promises.
import { EventEmitter } from 'node:events';
import { io, type Socket } from 'socket.io-client';
import type { LiveEvent } from '../../src/live/live-wire';
import { API_TOKEN } from './api-app';
import { whenSignalled } from './wait';

export interface Received {
  event: string;
  body: Record<string, unknown>;
}

export class LiveClient {
  readonly received: Received[] = [];
  readonly socket: Socket;
  /** emits 'received' after each message is recorded: `until` looks again then */
  private readonly arrivals = new EventEmitter().setMaxListeners(0);

  constructor(url: string, opts: { token?: string | null; model?: string; transports?: string[] } = {}) {
    this.socket = io(url, {
      auth: opts.token === null ? {} : { token: opts.token ?? API_TOKEN },
      query: opts.model ? { model: opts.model } : {},
      transports: opts.transports ?? ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    this.socket.onAny((event: string, body: Record<string, unknown>) => {
      this.received.push({ event, body });
      this.arrivals.emit('received');
    });
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

  /** `probe()`'s first value other than undefined or false, looked for now and at every message received. */
  until<T>(probe: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
    return whenSignalled([[this.arrivals, 'received']], probe, {
      what,
      timeoutMs,
      context: () => `received: ${this.received.map((r) => r.event).join(', ')}`,
    });
  }

  close(): void {
    this.socket.close();
  }
}
