// Embedded Postgres for the zero-install default: data under <home>/pg, initialised once, shared by
// every Loupe process on the same home, stopped by the last one to leave. Loupe owns the server: a
// watchdog restarts it on the same port if it dies (open connection pools simply reconnect), and
// reports a failure it cannot repair instead of going quiet.
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import { freePort, portFree } from '../../common/free-port';
import { isSecured, secureCluster } from './access';
import { APP_ROLE, connectionUrl, credentialsFile, ensureCredentials, readCredentials, type EmbeddedCredentials } from './credentials';
import { dataDirFor, locatePostgresBinaries, prepareDataParent, type PostgresBinaries } from './postgres-binaries';
import {
  initialiseCluster,
  isInitialised,
  runningPostmaster,
  serverLogTail,
  startServer,
  stopServer,
  type RunningPostmaster,
} from './postmaster';
import { RunDirectory } from './run-directory';

export { dataDirFor, runningPostmaster };

export interface EmbeddedPostgresEvents {
  /** the server died and is running again (possibly on another port) */
  restarted: [{ url: string; port: number; downMs: number; previousPid: number }];
  /** the server died and could not be started again */
  failed: [Error];
}

export interface EmbeddedPostgresHandle {
  /** Loupe's own connections: the non-superuser app role, its password from the home's credentials */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly events: EventEmitter<EmbeddedPostgresEvents>;
  /** Leaves the server: stops it unless another live Loupe process still uses it. */
  stop(): Promise<void>;
}

/**
 * Where the server's story goes; a restart is a warning (a fault happened, and was survived); a
 * notice is what a person waits on (the first start's initialisation, seconds of silence otherwise)
 * and is shown whatever the log level.
 */
export type EmbeddedPostgresLog = (message: string, level?: 'warn' | 'notice') => void;

export interface EmbeddedPostgresOptions {
  /** default: <home>/pg (or its /var/tmp fallback as root) */
  dataDir?: string;
  /** false: delete the data when the last user stops it (test databases) */
  persistent?: boolean;
  /** extra server settings, e.g. ['-c', 'fsync=off'] for throwaway test servers */
  postgresFlags?: string[];
  /** how long a dead server may take to come back before the failure is reported */
  restartDeadlineMs?: number;
  watchIntervalMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class EmbeddedPostgres implements EmbeddedPostgresHandle {
  readonly events = new EventEmitter<EmbeddedPostgresEvents>();
  private current!: RunningPostmaster;
  private creds!: EmbeddedCredentials;
  private timer?: NodeJS.Timeout;
  private restarting = false;
  private stopped = false;
  private left = false;

  constructor(
    private readonly bins: PostgresBinaries,
    readonly dataDir: string,
    private readonly run: RunDirectory,
    private readonly home: string,
    private readonly opts: EmbeddedPostgresOptions,
    private readonly log: EmbeddedPostgresLog,
  ) {}

  get port(): number {
    return this.current.port;
  }

  get url(): string {
    return connectionUrl(this.current.port, APP_ROLE, this.creds.app);
  }

  async start(): Promise<void> {
    this.current = await this.run.withLock(async () => {
      if (!readCredentials(this.home) && isSecured(this.dataDir)) {
        throw new Error(
          `${credentialsFile(this.home)} is missing, and the embedded Postgres in ${this.dataDir} accepts only the passwords it held: restore the file (or remove ${this.dataDir} to start afresh, losing its data)`,
        );
      }
      this.creds = ensureCredentials(this.home);
      this.run.takeLease();
      const existing = runningPostmaster(this.dataDir);
      if (existing) this.log(`using the embedded Postgres already running for ${this.dataDir} on port ${existing.port}`);
      const fresh = !existing && !isInitialised(this.dataDir);
      const began = Date.now();
      if (fresh) this.log(`initialising the embedded Postgres in ${this.dataDir} (first run on this LOUPE_HOME only)…`, 'notice');
      const running = existing ?? (await this.startServer(true));
      if (!isSecured(this.dataDir)) {
        // a new cluster, or one an older Loupe left open with the fixed loupe/loupe superuser
        this.log(`securing the embedded Postgres: random passwords (in ${this.home}), SCRAM only, Loupe's data owned by ${APP_ROLE}`);
        await secureCluster(this.dataDir, running.port, this.creds, this.bins.runAs);
      }
      if (fresh)
        this.log(
          `embedded Postgres initialised in ${((Date.now() - began) / 1000).toFixed(1)} s (\`loupe db url\` connects to it)`,
          'notice',
        );
      return running;
    });
    this.timer = setInterval(() => void this.watch(), this.opts.watchIntervalMs ?? 250);
    this.timer.unref();
  }

  private async startServer(allowInit: boolean): Promise<RunningPostmaster> {
    if (!isInitialised(this.dataDir)) {
      // only ever on the first start: a restart never re-initialises (that would lose the data)
      if (!allowInit) throw new Error(`${this.dataDir} is no longer a Postgres data directory`);
      this.log(`initialising embedded Postgres in ${this.dataDir}`);
      await initialiseCluster(this.bins, this.dataDir, this.creds.superuser);
    }
    const preferred = this.run.port;
    const port = preferred && (await portFree(preferred)) ? preferred : await freePort();
    const started = await startServer(this.bins, this.dataDir, port, this.opts.postgresFlags ?? []);
    this.run.port = started.port;
    this.log(`embedded Postgres started on port ${started.port} (data in ${this.dataDir})`);
    return started;
  }

  /** The watchdog: a server that died is started again, by whichever process sharing it gets there first. */
  private async watch(): Promise<void> {
    if (this.restarting || this.stopped) return;
    const running = runningPostmaster(this.dataDir);
    if (running && running.pid === this.current.pid) return;
    this.restarting = true;
    const previous = this.current;
    const downSince = Date.now();
    const deadline = downSince + (this.opts.restartDeadlineMs ?? 30_000);
    if (!running) this.log(`embedded Postgres (pid ${previous.pid}, port ${previous.port}) is gone; starting it again`, 'warn');
    let lastError: Error | undefined;
    try {
      while (!this.stopped) {
        try {
          // the postmaster's children need a moment to exit before a new server can take the shared memory
          this.current = await this.run.withLock(async () => runningPostmaster(this.dataDir) ?? this.startServer(false));
          this.log(`embedded Postgres is back on port ${this.current.port} after ${Date.now() - downSince} ms`, 'warn');
          this.events.emit('restarted', {
            url: this.url,
            port: this.current.port,
            downMs: Date.now() - downSince,
            previousPid: previous.pid,
          });
          return;
        } catch (e) {
          lastError = e as Error;
          if (Date.now() > deadline) break;
          await sleep(500);
        }
      }
      if (this.stopped) return;
      const error = new Error(
        `the embedded Postgres in ${this.dataDir} died and could not be started again within ${this.opts.restartDeadlineMs ?? 30_000} ms: ${lastError?.message ?? 'unknown error'}\n${serverLogTail(this.dataDir, 800)}`.trim(),
      );
      this.stopped = true;
      clearInterval(this.timer);
      this.events.emit('failed', error);
    } finally {
      this.restarting = false;
    }
  }

  async stop(): Promise<void> {
    if (this.left) return;
    this.left = true;
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.run.withLock(async () => {
      this.run.dropLease();
      const others = this.run.liveLeases();
      if (others.length) {
        this.log(`leaving the embedded Postgres running for ${others.length} other Loupe process(es): ${others.join(', ')}`);
        return;
      }
      await stopServer(this.bins, this.dataDir);
      if (this.opts.persistent === false) fs.rmSync(this.dataDir, { recursive: true, force: true });
    });
  }
}

export async function startEmbeddedPostgres(
  home: string,
  log: EmbeddedPostgresLog,
  opts: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgresHandle> {
  fs.mkdirSync(home, { recursive: true, mode: 0o755 });
  const dataDir = opts.dataDir ?? dataDirFor(home, log);
  prepareDataParent(home, dataDir);
  const bins = locatePostgresBinaries(log);
  const pg = new EmbeddedPostgres(bins, dataDir, new RunDirectory(`${dataDir}.run`), home, opts, log);
  await pg.start();
  return pg;
}
