// Shared plumbing for the stand-in integration tests: a server per test, the real ollama
// client pointed at it, and raw-HTTP readers for what the client hides.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Ollama } from 'ollama';

import { StandinServer } from '../../src/standin/standin-server';
import type { StandinOptions } from '../../src/standin/standin-script';
import { waitUntil } from '../support/wait';

export interface Harness {
  server: StandinServer;
  url: string;
  client: Ollama;
}

const running: StandinServer[] = [];

/** Starts a stand-in on a free port; stopped by `stopAll` (call it in afterEach). */
export async function startStandin(options: StandinOptions = {}): Promise<Harness> {
  const server = new StandinServer({ pull: { stepMs: 0 }, ...options });
  running.push(server);
  const { url } = await server.start(0);
  return { server, url, client: new Ollama({ host: url }) };
}

export async function stopAll(): Promise<void> {
  await Promise.all(running.splice(0).map((s) => s.stop()));
}

export function post(url: string, path: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/** The body split into NDJSON lines (each must end with \n), raw and parsed. */
export async function readLines(res: Response): Promise<{ text: string; lines: string[]; objects: Record<string, unknown>[] }> {
  const text = await res.text();
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return { text, lines, objects: lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/** The ollama-js ResponseError is not exported; recognise it by shape. */
export function responseError(err: unknown): { status: number; message: string } {
  const e = err as { name?: string; status_code?: number; error?: string };
  if (e?.name !== 'ResponseError' || typeof e.status_code !== 'number') throw err;
  return { status: e.status_code, message: e.error ?? '' };
}

/** Awaits a promise that must reject, returning the rejection. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

export interface RawResponse {
  status: number;
  headers: IncomingMessage['headers'];
  /** ms from sending the request to the 'response' event (headers received) */
  headersAfterMs: number;
  body: string;
}

/** A plain node:http request, to see exactly when the status and headers arrive. */
export function rawRequest(url: string, method: string, path: string, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = body === undefined ? {} : { 'Content-Length': Buffer.byteLength(body) };
    const req = httpRequest(`${url}${path}`, { method, agent: false, headers }, (res) => {
      const headersAfterMs = performance.now() - started;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, headersAfterMs, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const userMessage = (content: string) => [{ role: 'user', content }];

/** Polls `condition` until it holds, for state the request log does not show (through the shared waitUntil). */
export async function until(condition: () => boolean, timeoutMs?: number): Promise<void> {
  await waitUntil(condition, { what: `the stand-in state ${condition.toString()}`, timeoutMs });
}
