// Launching an HTTP MCP server on a port chosen beforehand: the port must stay free until the server
// binds it, and a readiness answer must not be taken from some other server on that port.
import * as http from 'node:http';
import * as net from 'node:net';
import { ephemeralPortRange, freePort } from '../../src/common/free-port';
import { launchHttpServer } from '../../src/tools/external-mcp-launch';

const bind = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve(s));
  });

describe('freePort', () => {
  it('gives a port that can be bound, outside the range the OS hands out to listen(0) and outgoing connections', async () => {
    const range = ephemeralPortRange();
    for (let i = 0; i < 5; i++) {
      const port = await freePort();
      if (range) expect(port < range.low || port > range.high).toBe(true);
      const s = await bind(port);
      await new Promise((r) => s.close(r));
    }
  });
});

describe('launchHttpServer', () => {
  it('does not take an answer on the port for its server when its process is already gone', async () => {
    // someone else's HTTP server on the port, slow to answer; the launched command exits at once
    const squatter = http.createServer((_req, res) => setTimeout(() => res.end('not mcp'), 500));
    await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', () => r()));
    const { port } = squatter.address() as net.AddressInfo;
    try {
      await expect(launchHttpServer({ command: 'false' }, `http://127.0.0.1:${port}/mcp`, { timeoutMs: 5_000 })).rejects.toThrow(
        /MCP server false exited with code 1 before it served/,
      );
    } finally {
      squatter.closeAllConnections();
      await new Promise((r) => squatter.close(r));
    }
  });
});
