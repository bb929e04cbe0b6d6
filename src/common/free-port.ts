// A port to hand to a server that binds it a moment later (an HTTP MCP server a trial starts, the
// embedded Postgres). Chosen where nothing else takes ports by itself.
import * as fs from 'node:fs';
import * as net from 'node:net';

/**
 * A port free right now on 127.0.0.1, for a server started a moment later. It is taken from below
 * the OS's ephemeral range where the OS says what that is (Linux): ports handed out for `listen(0)`
 * and outgoing connections come from that range, so nothing else in a busy run (a trial's stand-in,
 * a client socket, a restarted Postgres's former clients) can take the port in the second or so
 * before the server binds it; an HTTP server of the run that took it would even pass a launched MCP
 * server's readiness check.
 */
export async function freePort(): Promise<number> {
  const range = ephemeralPortRange();
  if (range && range.low > MIN_CHOSEN_PORT) {
    for (let i = 0; i < 20; i++) {
      const port = MIN_CHOSEN_PORT + Math.floor(Math.random() * (range.low - MIN_CHOSEN_PORT));
      if (await portFree(port)) return port;
    }
  }
  return listens(0);
}

/** Below this, ports belong to well-known services more often. */
const MIN_CHOSEN_PORT = 20_000;

/** The OS's range for automatically assigned ports, where it can be read. */
export function ephemeralPortRange(): { low: number; high: number } | undefined {
  try {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(low) && Number.isInteger(high) && low > 0 && high >= low ? { low, high } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `port` on 127.0.0.1 can be bound right now. */
export async function portFree(port: number): Promise<boolean> {
  return (await listens(port).catch(() => 0)) > 0;
}

/** Binds `port` (0: any) on 127.0.0.1 and lets it go: the port it got, or 0 (`port` taken). */
function listens(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => (port && e.code === 'EADDRINUSE' ? resolve(0) : reject(e)));
    probe.listen(port, '127.0.0.1', () => {
      const got = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(got));
    });
  });
}
