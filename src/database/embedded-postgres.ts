// Embedded Postgres for the zero-install default: data under <home>/pg, a free port, reused by the
// next run (and by a second Loupe process while the first one runs), stopped on exit by its owner.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { dataDirFor, loadEmbeddedPostgres } from './postgres-runtime';
import { processAlive } from '../common/process-alive';

export { dataDirFor };

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


/** A running postmaster for this data directory, from its lock file. */
export function runningPostmaster(dataDir: string): { pid: number; port: number } | undefined {
  try {
    const lines = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && processAlive(pid)) return { pid, port };
  } catch {
    // no lock file: nothing running
  }
  return undefined;
}

function parentPid(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may contain spaces, so split after ')'
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Fast shutdown (SIGINT), waiting up to 30 s for the postmaster to exit. */
async function stopPostmaster(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  for (let waited = 0; waited < 30_000 && processAlive(pid); waited += 100) await new Promise((r) => setTimeout(r, 100));
}

function urlFor(port: number): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
}

export interface EmbeddedPostgresOptions {
  /** default: <home>/pg (or its /var/tmp fallback as root) */
  dataDir?: string;
  /** false: delete the data when stopped (test databases) */
  persistent?: boolean;
  /** extra server settings, e.g. ['-c', 'fsync=off'] for throwaway test servers */
  postgresFlags?: string[];
}

export async function startEmbeddedPostgres(home: string, log: (m: string) => void, opts: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgresHandle> {
  fs.mkdirSync(home, { recursive: true, mode: 0o755 });
  const dataDir = opts.dataDir ?? dataDirFor(home, log);
  const existing = runningPostmaster(dataDir);
  if (existing) {
    // Left behind by a Loupe process that was killed (its postmaster now belongs to init): adopt it,
    // so this run stops it. One started by a live Loupe process stays that process's to stop.
    const orphan = parentPid(existing.pid) === 1;
    log(`${orphan ? 'adopting the orphaned' : 'reusing the'} embedded Postgres running for ${dataDir} on port ${existing.port}`);
    return { url: urlFor(existing.port), port: existing.port, owned: orphan, stop: orphan ? () => stopPostmaster(existing.pid) : async () => {} };
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres(log);
  const port = await freePort();
  let output = '';
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent ?? true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: true,
    // en_US.UTF-8 (the package default) is often not installed; C is always there.
    initdbFlags: ['--lc-messages=C', '--locale=C', '--encoding=UTF8'],
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1', ...(opts.postgresFlags ?? [])],
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
