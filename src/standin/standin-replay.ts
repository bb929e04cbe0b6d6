// The stand-in serving a recording instead of a script: for each request the replay source says
// what to answer — a recorded response (status, headers, every chunk, and how it ended: complete,
// cut by the server, or given up by the client), a refusal (a request the recording does not hold),
// something else's handler (a miss sent on to a real Ollama), or the stand-in's own handlers. A
// recorded response goes out at its recorded pace or as fast as possible; either way a reply the
// client gave up on is left hanging until the client gives up again.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sleep } from './standin-async';

export interface RecordedResponse {
  /** null: no response headers came (the request failed or the client gave up before them) */
  status: number | null;
  headers: Record<string, string>;
  /** when the headers came, ms after the request went out */
  headersAtMs: number | null;
  /** the body as it streamed: [ms after the request went out, text] */
  chunks: Array<[number, string]>;
  ending: 'complete' | 'dropped' | 'client_aborted' | 'upstream_error';
  endedAtMs: number;
}

export interface ReplayRequest {
  method: string;
  path: string;
  /** parsed JSON body (the text when it is not JSON) */
  body: unknown;
  rawBody: string;
}

export type ReplayAnswer =
  | { kind: 'recorded'; response: RecordedResponse }
  | { kind: 'refuse'; status: number; message: string }
  | { kind: 'delegate'; handle: (req: IncomingMessage, res: ServerResponse, rawBody: string, signal: AbortSignal) => Promise<void> }
  | { kind: 'own' };

export type ReplayPace = 'recorded' | 'fast';

export interface StandinReplaySource {
  readonly pace: ReplayPace;
  answer(request: ReplayRequest): ReplayAnswer;
}

/** Headers that describe the connection, not the reply: Node sets its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

export function replayableHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase())));
}

function waitForClose(res: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || res.destroyed) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
    res.once('close', () => resolve());
  });
}

async function dropConnection(res: ServerResponse): Promise<void> {
  const socket = res.socket;
  if (socket && res.headersSent && !socket.destroyed) await new Promise<void>((resolve) => socket.write('', () => resolve()));
  socket?.destroy();
  res.destroy();
}

/** Writes a recorded response: headers, chunks and ending, paced as recorded or at once. */
export async function serveRecorded(res: ServerResponse, response: RecordedResponse, pace: ReplayPace, signal: AbortSignal): Promise<void> {
  const started = performance.now();
  const at = async (ms: number | null) => {
    if (pace === 'recorded' && ms !== null) await sleep(Math.max(0, started + ms - performance.now()), signal);
  };
  if (response.status === null) {
    if (response.ending === 'client_aborted') return waitForClose(res, signal);
    await at(response.endedAtMs);
    return dropConnection(res);
  }
  await at(response.headersAtMs);
  res.writeHead(response.status, replayableHeaders(response.headers));
  for (const [ms, text] of response.chunks) {
    await at(ms);
    signal.throwIfAborted();
    if (!res.write(text)) await new Promise<void>((resolve) => res.once('drain', () => resolve()));
  }
  if (response.ending === 'client_aborted') {
    // the client gave up on this reply when it was recorded: it has to give up again
    res.flushHeaders();
    return waitForClose(res, signal);
  }
  await at(response.endedAtMs);
  if (response.ending === 'complete') {
    res.end();
    return;
  }
  await dropConnection(res);
}
