// One Postgres server for one data directory, driven through pg_ctl: initialise, start (the server
// detaches into its own session, so it outlives the Loupe process that started it), stop.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { processAlive } from '../../common/process-alive';
import { SUPERUSER } from './credentials';
import type { PostgresBinaries } from './postgres-binaries';

export interface RunningPostmaster {
  pid: number;
  port: number;
}

/** The live server of this data directory, from its lock file (postmaster.pid: pid, dir, start, port…). */
export function runningPostmaster(dataDir: string): RunningPostmaster | undefined {
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

export function isInitialised(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'PG_VERSION'));
}

/** The server's own log (inside the data directory, where the postgres user can write). */
export function serverLogFile(dataDir: string): string {
  return path.join(dataDir, 'loupe-server.log');
}

export function serverLogTail(dataDir: string, chars = 2_000): string {
  try {
    const text = fs.readFileSync(serverLogFile(dataDir), 'utf8');
    return text.slice(-chars).trim();
  } catch {
    return '';
  }
}

function run(bins: PostgresBinaries, file: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // C locale: en_US.UTF-8 is often not installed; messages in English for the logs we parse
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C' };
    execFile(file, args, { env, timeout: timeoutMs, ...(bins.runAs ?? {}) }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`.trim();
      if (error) reject(new Error(`${path.basename(file)} ${args[0] ?? ''} failed: ${output || error.message}`));
      else resolve(output);
    });
  });
}

/** A new cluster whose only role is the superuser, with `password` (it is secured next: see access.ts). */
export async function initialiseCluster(bins: PostgresBinaries, dataDir: string, password: string): Promise<void> {
  // a half-initialised directory (killed during initdb) would make initdb refuse
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (bins.runAs) fs.chownSync(dataDir, bins.runAs.uid, bins.runAs.gid);
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-pw-'));
  const pwFile = path.join(pwDir, 'pw');
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  // initdb runs as the postgres user when Loupe is root: the file must be its to read, and no one else's
  if (bins.runAs) fs.chownSync(pwFile, bins.runAs.uid, bins.runAs.gid);
  fs.chmodSync(pwDir, 0o711);
  try {
    await run(
      bins,
      bins.initdb,
      [
        `--pgdata=${dataDir}`,
        '--auth=scram-sha-256',
        `--username=${SUPERUSER}`,
        `--pwfile=${pwFile}`,
        '--lc-messages=C',
        '--locale=C',
        '--encoding=UTF8',
      ],
      120_000,
    );
  } finally {
    fs.rmSync(pwDir, { recursive: true, force: true });
  }
}

/** Starts the server on `port` and waits until it accepts connections. */
export async function startServer(bins: PostgresBinaries, dataDir: string, port: number, flags: string[]): Promise<RunningPostmaster> {
  const options = ['-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', "unix_socket_directories=''", ...flags].join(' ');
  try {
    await run(bins, bins.pgCtl, ['start', '-D', dataDir, '-l', serverLogFile(dataDir), '-w', '-t', '60', '-s', '-o', options], 90_000);
  } catch (e) {
    throw new Error(`${(e as Error).message}\n${serverLogTail(dataDir)}`.trim());
  }
  const running = runningPostmaster(dataDir);
  if (!running) throw new Error(`Postgres started but left no postmaster.pid in ${dataDir}\n${serverLogTail(dataDir)}`);
  return running;
}

/** Fast shutdown (active sessions are disconnected, everything committed stays), waiting for it. */
export async function stopServer(bins: PostgresBinaries, dataDir: string): Promise<void> {
  const running = runningPostmaster(dataDir);
  if (!running) return;
  try {
    await run(bins, bins.pgCtl, ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60', '-s'], 90_000);
  } catch {
    // pg_ctl could not do it (a stale lock file, a foreign owner): signal the postmaster directly
    try {
      process.kill(running.pid, 'SIGINT');
    } catch {
      return;
    }
    for (let waited = 0; waited < 30_000 && processAlive(running.pid); waited += 100) await new Promise((r) => setTimeout(r, 100));
  }
}
