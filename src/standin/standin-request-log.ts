// The log of every request the stand-in received, updated live as each one progresses, so
// tests can check ordering (slot timestamps), faults and cancellations without wall-clock asserts.
import { EventEmitter } from 'node:events';

import type { StandinFault } from './standin-script';
import type { GenerationOutcome } from './standin-generation';
import type { LoadRecord } from './standin-gpu';
import type { StandinPromptRecord } from './standin-prompt';
import type { SimBehaviour } from '../sim/sim-types';

export interface StandinRequestRecord {
  id: number;
  method: string;
  /** path without the query string */
  path: string;
  /** parsed JSON body; the raw text when it is not JSON; undefined when empty */
  body: unknown;
  /** epoch ms, fractional (a monotonic clock anchored at process start) */
  receivedAt: number;
  /** the model as sent (chat/generate/show/pull/delete) */
  model?: string;
  /** index in the model's turn list of the turn this request got (chat/generate) */
  turnIndex?: number;
  /** a simulated model's behaviour on this turn (standin-sim.ts) */
  simBehaviour?: SimBehaviour;
  /** the fault injected into this request, if any */
  fault?: StandinFault['kind'];
  /** HTTP status sent; undefined while none has been sent or when the socket was dropped first */
  status?: number;
  /** had to wait inside the server for a model load or a parallel slot */
  queued?: boolean;
  /** the model load or reload this request performed, with its cause (first_load, options_changed, keep_alive_expired, evicted, unloaded) */
  load?: LoadRecord;
  /** model ready (end of load_duration) */
  loadedAt?: number;
  /** parallel slot granted: generation starts */
  slotAcquiredAt?: number;
  /** parallel slot freed */
  slotReleasedAt?: number;
  /** status and headers went out */
  firstByteAt?: number;
  /** NDJSON lines written */
  chunks: number;
  /** the request is over: its handler returned and its response finished or its connection closed */
  finishedAt?: number;
  /** the client went away before the response was complete (the server stopped generating) */
  cancelled: boolean;
  cancelledAt?: number;
  /** the stand-in itself dropped the connection (disconnect fault) */
  dropped?: boolean;
  /** the templated prompt against the loaded context: tokens kept and cached, what truncation dropped (chat/generate that got a slot) */
  prompt?: StandinPromptRecord;
  /** how generation ended (chat/generate that got a slot): ran to the end, stopped by the
   *  client going away, cut by a disconnect fault, or ended by an error_line fault */
  generation?: GenerationOutcome | 'cancelled';
}

export class RequestLog {
  readonly records: StandinRequestRecord[] = [];
  private nextId = 1;
  private inFlight = 0;
  private readonly events = new EventEmitter().setMaxListeners(0);

  /**
   * `limit`: keep only the newest `limit` records (a long-running `loupe standin` would otherwise
   * hold every request body it ever got); unbounded by default, as a trial's expectations count them all.
   */
  constructor(private readonly limit = Number.POSITIVE_INFINITY) {
    if (!(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 1)))
      throw new Error(`stand-in request log limit: expected a whole number of at least 1, got ${limit}`);
  }

  /** requests the log has started, those no longer kept included */
  get received(): number {
    return this.nextId - 1;
  }

  start(method: string, path: string, receivedAt: number): StandinRequestRecord {
    const record: StandinRequestRecord = { id: this.nextId++, method, path, body: undefined, receivedAt, chunks: 0, cancelled: false };
    this.records.push(record);
    // a record dropped while its request is in flight is still updated by its handler, just no longer listed
    if (this.records.length > this.limit) this.records.splice(0, this.records.length - this.limit);
    this.inFlight += 1;
    this.changed();
    return record;
  }

  finish(record: StandinRequestRecord, at: number): void {
    if (record.finishedAt !== undefined) return;
    record.finishedAt = at;
    this.inFlight -= 1;
    this.changed();
  }

  /** Call after mutating a record so waiters re-check. */
  changed(): void {
    this.events.emit('change');
  }

  clear(): void {
    this.records.length = 0;
    this.changed();
  }

  get pending(): number {
    return this.inFlight;
  }

  /** Resolves once `predicate` holds over the log; rejects after `timeoutMs`. */
  waitFor(predicate: (records: readonly StandinRequestRecord[]) => boolean, timeoutMs = 5000): Promise<void> {
    if (predicate(this.records)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!predicate(this.records)) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`stand-in: condition not met within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.events.off('change', check);
      };
      this.events.on('change', check);
    });
  }

  /** Resolves when no request is in flight. */
  settled(timeoutMs = 5000): Promise<void> {
    return this.waitFor(() => this.inFlight === 0, timeoutMs);
  }
}
