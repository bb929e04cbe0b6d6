// The `ollama` client for one request, with a custom fetch that (1) merges our own abort signal, so a
// request can be cancelled even before response headers arrive (ollama-js's abort() cannot), (2)
// captures status and Retry-After, which ollama-js's ResponseError does not carry, and (3) drops
// malformed NDJSON lines itself, so they are counted and reported instead of console.warn'ed.
import { Ollama } from 'ollama';

export interface ResponseCapture {
  status?: number;
  retryAfter?: string | null;
  headersAt?: number;
  malformedLines: number;
}

export function createRequestClient(
  host: string,
  signal: AbortSignal,
  capture: ResponseCapture,
  onMalformed?: (line: string) => void,
): Ollama {
  const fetchWithSignal = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const signals = [signal, init?.signal].filter((s): s is AbortSignal => Boolean(s));
    const res = await fetch(input, { ...init, signal: AbortSignal.any(signals) });
    capture.status = res.status;
    capture.retryAfter = res.headers.get('retry-after');
    capture.headersAt = performance.now();
    const type = res.headers.get('content-type') ?? '';
    if (!res.ok || !res.body || !type.includes('ndjson')) return res;
    const filtered = res.body.pipeThrough(
      ndjsonFilter((line) => {
        capture.malformedLines++;
        onMalformed?.(line);
      }),
    );
    return new Response(filtered, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return new Ollama({ host, fetch: fetchWithSignal as typeof fetch });
}

/** Passes complete lines holding a JSON object through; reports and drops the rest. */
export function ndjsonFilter(onMalformed: (line: string) => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  const emit = (line: string, controller: TransformStreamDefaultController<Uint8Array>) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return onMalformed(line);
    }
    // ollama-js reads every line as an object (`'error' in line`): `null`, `42` or `[…]` would
    // throw a TypeError out of the stream instead of being skipped
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return onMalformed(line);
    controller.enqueue(encoder.encode(`${line}\n`));
  };
  return new TransformStream({
    transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        emit(buffer.slice(0, nl), controller);
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
      }
    },
    flush(controller) {
      buffer += decoder.decode();
      emit(buffer, controller);
    },
  });
}
