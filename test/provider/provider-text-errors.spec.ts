// An error reply that is not JSON (a reverse proxy's 502 page, Go's "404 page not found") reaches the
// classifier with its text as the message, and nothing is written to stdout: ollama-js console.logs
// while reading such a body, which would corrupt `loupe eval --json`.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamChat } from '../../src/provider/ollama/ollama-chat-stream';
import { classifyProviderError } from '../../src/provider/ollama/error-classifier';
import { OllamaModels } from '../../src/provider/ollama/ollama-models';
import { ProviderError } from '../../src/provider/provider-errors';

const BUDGETS = { firstByteTimeoutMs: 5_000, idleTimeoutMs: 5_000, requestTimeoutMs: 10_000 };

describe('non-JSON error replies', () => {
  let server: http.Server;
  let url: string;
  const log = jest.spyOn(console, 'log');

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      if (req.url === '/api/chat') {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>upstream gone</html>\n');
      } else if (req.url === '/api/tags') {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('404 page not found\n');
      } else {
        res.writeHead(500);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    log.mockRestore();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => log.mockClear());

  it('a 502 page: a retryable server error whose message is the body text, nothing on stdout', async () => {
    const error = await streamChat(url, { model: 'm', messages: [{ role: 'user', content: 'x' }] }, BUDGETS, {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).info).toEqual(
      expect.objectContaining({ kind: 'server_error', retryable: true, status: 502, message: '<html>upstream gone</html>' }),
    );
    expect(log).not.toHaveBeenCalled();
  });

  it('a wrong path (404 page not found) on a management call: a bad request, not a missing model, nothing on stdout', async () => {
    const models = new OllamaModels(url, url);
    const error = await models.refreshModels().then(
      () => undefined,
      (e: unknown) => e,
    );
    // the raw client error, as the provider classifies it
    expect(classifyProviderError(error)).toEqual(
      expect.objectContaining({ kind: 'bad_request', retryable: false, status: 404, message: '404 page not found' }),
    );
    expect(log).not.toHaveBeenCalled();
    models.dispose();
  });

  it('an error with an empty body falls back to the status line', async () => {
    const error = await new OllamaModels(url, url).deleteModel('x').catch((e: unknown) => e);
    expect(JSON.stringify(error)).toMatch(/500/);
    expect(log).not.toHaveBeenCalled();
  });
});
