// The body of a streamed Ollama reply, as the reader ollama-js asks for (read/releaseLock/cancel),
// straight from the node:http response: complete lines holding a JSON object pass through, the rest
// are reported and dropped (ollama-js would console.warn them, or throw on `null`/`42`/`[…]`).
// A chunk of whole valid lines is handed on as the bytes that came; only a mixed one is re-encoded.
import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';

type ReadResult = { done: false; value: Uint8Array } | { done: true; value: undefined };

const NEWLINE = 0x0a;

/** A line ollama-js can read: a JSON object (it tests `'error' in line`). */
export function isObjectLine(line: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return false;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Splits `text` (what came after `pending`) into lines; returns the kept text and what is left
 * after the last newline. `dropped` hears each line that is not a JSON object.
 */
export function filterLines(
  pending: string,
  text: string,
  dropped: (line: string) => void,
): { kept: string; rest: string; clean: boolean } {
  const all = pending + text;
  const last = all.lastIndexOf('\n');
  if (last < 0) return { kept: '', rest: all, clean: pending === '' };
  let kept = '';
  let clean = pending === '';
  let start = 0;
  while (start <= last) {
    const nl = all.indexOf('\n', start);
    const line = all.slice(start, nl);
    start = nl + 1;
    if (!line.trim()) {
      clean = false;
      continue;
    }
    if (isObjectLine(line)) kept += `${line}\n`;
    else {
      clean = false;
      dropped(line);
    }
  }
  return { kept, rest: all.slice(last + 1), clean };
}

export class NdjsonBodyReader {
  private readonly queue: Uint8Array[] = [];
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private ended = false;
  private error: { reason: unknown } | undefined;
  private waiter?: { resolve: (r: ReadResult) => void; reject: (e: unknown) => void };

  constructor(
    private readonly res: IncomingMessage,
    private readonly dropped: (line: string) => void,
    private readonly destroy: () => void,
  ) {
    res.on('data', (chunk: Buffer) => this.guarded(() => this.take(chunk)));
    res.on('end', () => this.guarded(() => this.end()));
    res.on('error', (e) => this.fail(e));
    // closed before its end: the server cut the stream (or the request was destroyed)
    res.on('close', () => {
      if (!this.ended)
        this.fail(Object.assign(new Error('premature close: the stream ended before its last line'), { code: 'ECONNRESET' }));
    });
  }

  read(): Promise<ReadResult> {
    const value = this.queue.shift();
    if (value) return Promise.resolve({ done: false, value });
    if (this.error) return Promise.reject(this.error.reason);
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  releaseLock(): void {}

  async cancel(): Promise<void> {
    this.destroy();
  }

  /** The request failed (or was aborted): the next read rejects with why, once what arrived is read. */
  fail(reason: unknown): void {
    if (this.error || this.ended) return;
    this.error = { reason };
    const w = this.waiter;
    this.waiter = undefined;
    w?.reject(reason);
  }

  /** A listener that throws (the caller's report of a dropped line) fails the read, not the process. */
  private guarded(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.fail(e);
      this.destroy();
    }
  }

  private take(chunk: Buffer): void {
    const { kept, rest, clean } = filterLines(this.pending, this.decoder.write(chunk), this.dropped);
    this.pending = rest;
    // the common case: whole valid lines, passed on as they came
    if (clean && rest === '' && chunk[chunk.length - 1] === NEWLINE) this.push(chunk);
    else if (kept) this.push(Buffer.from(kept));
  }

  private end(): void {
    if (this.error) return;
    // a last line without its newline counts as a line
    const { kept } = filterLines(this.pending, `${this.decoder.end()}\n`, this.dropped);
    this.pending = '';
    if (kept) this.push(Buffer.from(kept));
    this.ended = true;
    const w = this.waiter;
    this.waiter = undefined;
    w?.resolve({ done: true, value: undefined });
  }

  private push(value: Uint8Array): void {
    const w = this.waiter;
    if (w) {
      this.waiter = undefined;
      w.resolve({ done: false, value });
    } else this.queue.push(value);
  }
}
