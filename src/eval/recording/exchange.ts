// A model request and its response as they crossed the wire: the body as sent; the status, headers
// and every chunk of the reply with the time it arrived (ms after the request went out); how it
// ended. Plain data: the recording proxy captures it, Postgres and the export file keep it, the
// stand-in serves it back.
import type { RecordedResponse } from '../../standin/standin-replay';

export type ExchangeKind = 'chat' | 'other';
export type Upstream = 'main' | 'local';

export interface CapturedExchange extends RecordedResponse {
  upstream: Upstream;
  kind: ExchangeKind;
  /** arrival order among this trial's requests of this kind on this upstream */
  position: number;
  method: string;
  path: string;
  /** the body as sent: parsed JSON, or the text when it is not JSON, or null when empty */
  request: unknown;
  error: string | null;
}

/** Model calls are what the loop asks; everything else (tags, show, version, ps) describes the host. */
export function exchangeKind(method: string, path: string): ExchangeKind {
  return method === 'POST' && (path === '/api/chat' || path === '/api/generate') ? 'chat' : 'other';
}

export function parseBody(raw: string): unknown {
  if (raw === '') return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The model a request names (chat, show, pull), '' when it names none. */
export function modelOf(request: unknown): string {
  const m = request && typeof request === 'object' ? (request as { model?: unknown; name?: unknown }).model : undefined;
  return typeof m === 'string' ? m : '';
}
