// Closing the pool waits for its connections' sockets to close, and cuts (and names) one whose
// server never hangs up: a socket left open keeps the process alive after Loupe has closed.
import * as net from 'node:net';
import { closeDataSource, createDataSource } from '../../src/database/data-source';
import { createTestDatabase } from '../support/test-app';

/** sockets this process has open to `port` */
function socketsTo(port: number): net.Socket[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles.filter((h): h is net.Socket => h instanceof net.Socket && h.remotePort === port);
}

/** A TCP relay to Postgres that never hangs up on the client: the client's goodbye is passed on, the server's close is not. */
async function relayThatNeverHangsUp(target: URL): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.pipe(client, { end: false });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('closing the pool', () => {
  it('returns once every connection has closed, none still open', async () => {
    const url = await createTestDatabase();
    const ds = createDataSource(url);
    await ds.initialize();
    // six connections, each held until all are open, then all idle in the pool when it closes
    const runners = Array.from({ length: 6 }, () => ds.createQueryRunner());
    await Promise.all(runners.map((r) => r.query('SELECT 1')));
    await Promise.all(runners.map((r) => r.release()));
    const port = Number(new URL(url).port);
    expect(socketsTo(port).length).toBeGreaterThanOrEqual(6);

    const lingering = await closeDataSource(ds);

    expect(lingering).toEqual([]);
    expect(socketsTo(port)).toEqual([]);
  });

  it('cuts a connection whose server never hangs up, and names what it last ran', async () => {
    const url = new URL(await createTestDatabase());
    const relay = await relayThatNeverHangsUp(url);
    try {
      const viaRelay = new URL(url);
      viaRelay.port = String(relay.port);
      const ds = createDataSource(viaRelay.toString());
      await ds.initialize();
      await ds.query('SELECT 41 + 1 AS answer');
      expect(socketsTo(relay.port).length).toBeGreaterThanOrEqual(1);

      const lingering = await closeDataSource(ds, 300);

      expect(lingering.length).toBeGreaterThanOrEqual(1);
      expect(lingering.map((c) => c.lastQuery)).toContain('SELECT 41 + 1 AS answer');
      expect(socketsTo(relay.port)).toEqual([]);
    } finally {
      await relay.close();
    }
  });
});
