// The `ollama` client for one request, on a fetch of our own over node:http (keep-alive agents):
// undici's fetch plus a re-wrapped web-stream body cost about 1 ms of CPU per streamed chat, this
// about 0.4 ms (bench `stream`). Undici itself is still loaded, once per process (about 20 ms of an
// eval's start): ollama-js tests every request's headers with `instanceof Headers`, and reading that
// global loads it. The fetch (1) takes our own abort signal, so a request
// can be cancelled even before response headers arrive (ollama-js's abort() cannot), (2) captures
// status and Retry-After, which ollama-js's ResponseError does not carry, and (3) drops malformed
// NDJSON lines itself, so they are counted and reported instead of console.warn'ed.
import * as http from 'node:http';
import * as https from 'node:https';
import { Ollama } from 'ollama';
import { NdjsonBodyReader } from './ndjson-body-reader';

export interface ResponseCapture {
  status?: number;
  retryAfter?: string | null;
  headersAt?: number;
  malformedLines: number;
}

const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
};

export function createRequestClient(
  host: string,
  signal: AbortSignal,
  capture: ResponseCapture,
  onMalformed?: (line: string) => void,
): Ollama {
  const onLineDropped = (line: string) => {
    capture.malformedLines++;
    onMalformed?.(line);
  };
  const fetchOverHttp = (input: string | URL | Request, init: RequestInit = {}) =>
    httpFetch(urlOf(input), init, [signal, init.signal], capture, onLineDropped);
  return new Ollama({ host, fetch: fetchOverHttp as typeof fetch });
}

// ollama-js passes a string; the global Request is not built on
const urlOf = (input: string | URL | Request): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : (input as { url: string }).url;

/** The `ollama` client for a management call (list, show, ps, load, pull, delete) on the same transport, ended by `signal`. */
export function createManagementClient(host: string, signal: AbortSignal): Ollama {
  return createRequestClient(host, signal, { malformedLines: 0 });
}

/**
 * What ollama-js reads of a response: ok, status, statusText, headers.get, and the body — a reader
 * for a stream, json()/text() for a whole reply. Not undici's Response: building one (and its Headers)
 * for every reply costs more than this object, for nothing read here.
 */
function responseOf(res: http.IncomingMessage, body: { reader: NdjsonBodyReader } | { text: string }): Response {
  const status = res.statusCode ?? 0;
  const headers = {
    get: (name: string): string | null => {
      const v = res.headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    },
  };
  const base = { ok: status >= 200 && status < 300, status, statusText: res.statusMessage ?? '', headers };
  if ('reader' in body) {
    const { reader } = body;
    return { ...base, body: { getReader: () => reader, cancel: () => reader.cancel() } } as unknown as Response;
  }
  const { text } = body;
  if (!base.ok && !(headers.get('content-type') ?? '').includes('application/json')) {
    // ollama-js reads a non-JSON error body with console.log calls (stdout: it would corrupt `--json`); handed
    // over as the JSON error Ollama sends, the message it makes is the same text
    const jsonHeaders = { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'application/json' : headers.get(name)) };
    const error = text.trim() ? { error: text.trim() } : {};
    return { ...base, headers: jsonHeaders, body: null, text: async () => text, json: async () => error } as unknown as Response;
  }
  return { ...base, body: null, text: async () => text, json: async () => JSON.parse(text) as unknown } as unknown as Response;
}

function httpFetch(
  url: string,
  init: RequestInit,
  signals: Array<AbortSignal | null | undefined>,
  capture: ResponseCapture,
  onLineDropped: (line: string) => void,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const live = signals.filter((s): s is AbortSignal => Boolean(s));
    const fired = live.find((s) => s.aborted);
    if (fired) return reject(fired.reason);
    let target: URL;
    try {
      target = new URL(url);
    } catch (e) {
      return reject(e);
    }
    const agent = AGENTS[target.protocol as keyof typeof AGENTS];
    if (!agent) return reject(Object.assign(new TypeError(`unsupported protocol ${target.protocol}`), { code: 'ERR_INVALID_URL' }));
    const body = typeof init.body === 'string' ? init.body : undefined;
    const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    let reader: NdjsonBodyReader | undefined;
    const req = (target.protocol === 'https:' ? https : http).request(target, { method: init.method ?? 'GET', headers, agent }, (res) => {
      capture.status = res.statusCode;
      const retryAfter = res.headers['retry-after'];
      capture.retryAfter = Array.isArray(retryAfter) ? retryAfter[0] : (retryAfter ?? null);
      capture.headersAt = performance.now();
      const status = res.statusCode ?? 0;
      const type = String(res.headers['content-type'] ?? '');
      if (status >= 200 && status < 300 && type.includes('ndjson')) {
        reader = new NdjsonBodyReader(res, onLineDropped, () => req.destroy());
        return resolve(responseOf(res, { reader }));
      }
      // a whole reply (JSON, or an error's text): read to its end
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('error', fail);
      res.on('end', () => {
        done();
        resolve(responseOf(res, { text: Buffer.concat(parts).toString('utf8') }));
      });
    });
    function fail(e: unknown): void {
      done();
      if (reader) reader.fail(e);
      else reject(e);
    }
    // an abort ends the request at any point: before headers (the fetch rejects) or mid-body (the reader does)
    const onAbort = function (this: AbortSignal) {
      fail(this.reason);
      req.destroy();
    };
    for (const s of live) s.addEventListener('abort', onAbort, { once: true });
    function done(): void {
      for (const s of live) s.removeEventListener('abort', onAbort);
    }
    req.on('error', fail);
    // read to its end, cut by the server, or aborted: the listeners go either way (the reader sees the cut itself)
    req.on('close', done);
    req.end(body);
  });
}
