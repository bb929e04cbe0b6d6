// Sends one request on to an Ollama and its response back, exactly as it comes — status, headers,
// each chunk as it arrives, a connection the server cuts cut for the client too, a client that gives
// up giving up upstream too — and captures all of it with its timing. The recording proxy and a
// replay that lets misses through (--allow-new) both forward this way.
import * as http from 'node:http';
import * as https from 'node:https';
import type { RecordedResponse } from '../../standin/standin-replay';
import { replayableHeaders } from '../../standin/standin-replay';

export interface ForwardResult extends RecordedResponse {
  error: string | null;
}

/** The base URL's path prefix is kept (an Ollama behind a reverse proxy at /ollama). */
export function upstreamUrl(base: string, path: string): URL {
  const url = new URL(base);
  const prefix = url.pathname.replace(/\/+$/, '');
  return new URL(`${prefix}${path}`, url);
}

async function cutConnection(res: http.ServerResponse): Promise<void> {
  const socket = res.socket;
  if (socket && res.headersSent && !socket.destroyed) await new Promise<void>((resolve) => socket.write('', () => resolve()));
  socket?.destroy();
  res.destroy();
}

export function forward(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  rawBody: string,
  base: string,
  signal?: AbortSignal,
): Promise<ForwardResult> {
  const target = upstreamUrl(base, req.url ?? '/');
  const client = target.protocol === 'https:' ? https : http;
  const headers: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (!['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v;
  }
  const body = Buffer.from(rawBody, 'utf8');
  if (body.length || req.method === 'POST') headers['content-length'] = body.length;
  const started = performance.now();
  const since = () => performance.now() - started;
  const result: ForwardResult = {
    status: null,
    headers: {},
    headersAtMs: null,
    chunks: [],
    ending: 'complete',
    endedAtMs: 0,
    error: null,
  };
  return new Promise<ForwardResult>((resolve) => {
    let settled = false;
    const settle = (ending: ForwardResult['ending'], error?: string) => {
      if (settled) return;
      settled = true;
      result.ending = ending;
      result.endedAtMs = since();
      if (error) result.error = error;
      resolve(result);
    };
    const upstream = client.request(target, { method: req.method, headers }, (upstreamRes) => {
      result.status = upstreamRes.statusCode ?? 502;
      result.headersAtMs = since();
      for (const [k, v] of Object.entries(upstreamRes.headers))
        if (v !== undefined) result.headers[k] = Array.isArray(v) ? v.join(', ') : v;
      if (!res.destroyed) {
        res.writeHead(result.status, replayableHeaders(result.headers));
        res.flushHeaders();
      }
      const decoder = new TextDecoder();
      upstreamRes.on('data', (chunk: Buffer) => {
        const text = decoder.decode(chunk, { stream: true });
        if (text) result.chunks.push([since(), text]);
        if (!res.destroyed) res.write(chunk);
      });
      upstreamRes.on('end', () => {
        const rest = decoder.decode();
        if (rest) result.chunks.push([since(), rest]);
        res.end();
        settle('complete');
      });
      upstreamRes.on('aborted', () => {
        // the server cut the connection mid-reply: the client sees the same
        void cutConnection(res).finally(() => settle('dropped', 'the server closed the connection mid-response'));
      });
      upstreamRes.on(
        'error',
        () => void cutConnection(res).finally(() => settle('dropped', 'the server closed the connection mid-response')),
      );
    });
    upstream.on('error', (e: Error) => {
      if (settled) return;
      // nothing came back: the client gets a failed connection as it would from the server itself
      if (result.status === null) {
        res.socket?.destroy();
        res.destroy();
        settle(res.writableEnded || clientGone ? 'client_aborted' : 'upstream_error', e.message);
      }
    });
    let clientGone = false;
    const onClientGone = () => {
      if (settled || res.writableFinished) return;
      clientGone = true;
      upstream.destroy();
      settle('client_aborted', 'the client gave up before the response was complete');
    };
    res.once('close', onClientGone);
    signal?.addEventListener('abort', onClientGone, { once: true });
    upstream.end(body);
  });
}
