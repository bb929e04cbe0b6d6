// Response writing over node:http with Ollama's header behaviour: JSON replies carry Go's
// content types, and a stream sends its status and headers only with its first line.
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { goJson } from './standin-go-json';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const NDJSON_TYPE = 'application/x-ndjson';
export const TEXT_TYPE = 'text/plain; charset=utf-8';
/** gin writes its 404/405 bodies with a bare "text/plain" */
export const GIN_PLAIN_TYPE = 'text/plain';

export type Headers = Record<string, string | number>;

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function sendText(res: ServerResponse, status: number, text: string, contentType = TEXT_TYPE, headers: Headers = {}): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, { ...headers, 'Content-Type': contentType, 'Content-Length': body.length });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Headers = {}, contentType = JSON_TYPE): void {
  sendText(res, status, goJson(value), contentType, headers);
}

/** Ollama's error shape: {"error":"<message>"} with a real status. */
export function sendError(res: ServerResponse, status: number, message: string, headers: Headers = {}): void {
  sendJson(res, status, { error: message }, headers);
}

/** 200 with no body at all (DELETE /api/delete, /api/copy). */
export function sendEmpty(res: ServerResponse, status = 200): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'Content-Length': 0 });
  res.end();
}

/**
 * An NDJSON stream that stays silent until its first line: until then the client sees no
 * status, no headers, no bytes (Node only flushes headers with the first write).
 */
export class NdjsonWriter {
  lines = 0;

  /** `onLine` runs for every line written (the request log counts chunks with it). */
  constructor(
    private readonly res: ServerResponse,
    private readonly onLine: () => void = () => undefined,
  ) {}

  get started(): boolean {
    return this.res.headersSent;
  }

  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /** Writes one object as a line; resolves once the socket can take more. */
  async writeObject(value: unknown, signal?: AbortSignal): Promise<void> {
    await this.writeLine(goJson(value), signal);
  }

  /** Writes a raw line (a newline is appended); the first line sends status 200 and the headers. */
  async writeLine(line: string, signal?: AbortSignal): Promise<void> {
    if (this.closed) return;
    if (!this.res.headersSent) this.res.writeHead(200, { 'Content-Type': NDJSON_TYPE });
    this.lines += 1;
    this.onLine();
    const flushed = this.res.write(`${line}\n`);
    if (!flushed && !this.closed) await once(this.res, 'drain', { signal });
  }

  end(): void {
    if (this.closed) return;
    if (!this.res.headersSent) this.res.writeHead(200, { 'Content-Type': NDJSON_TYPE });
    this.res.end();
  }
}
