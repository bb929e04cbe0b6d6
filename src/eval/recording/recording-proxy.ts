// A trial's recorder: an HTTP proxy in front of its Ollama (a real one at OLLAMA_HOST, or the trial's
// stand-in) that passes every request through unchanged and captures it with its response. The
// provider talks to it over HTTP as it would to Ollama, so nothing in the provider changes, and what
// is recorded is exactly what crossed the wire. One per trial and upstream, so the position of a
// request in the session is simply its arrival order here.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exchangeKind, parseBody, type CapturedExchange, type ExchangeKind, type Upstream } from './exchange';
import { forward } from './http-forward';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export class RecordingProxy {
  private server?: Server;
  private readonly positions: Record<ExchangeKind, number> = { chat: 0, other: 0 };
  private readonly sockets = new Set<import('node:net').Socket>();
  url = '';

  constructor(
    private readonly upstreamBase: string,
    private readonly upstream: Upstream,
    private readonly onExchange: (exchange: CapturedExchange) => void,
  ) {}

  async start(): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.once('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = (req.url ?? '/').split('?')[0];
    const kind = exchangeKind(method, path);
    const position = this.positions[kind]++;
    let rawBody = '';
    try {
      rawBody = await readBody(req);
    } catch {
      res.destroy();
      return;
    }
    const result = await forward(req, res, rawBody, this.upstreamBase);
    this.onExchange({ ...result, upstream: this.upstream, kind, position, method, path, request: parseBody(rawBody) });
  }
}
