import { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import { MIGRATIONS } from '../../migrations';
import { ENTITIES } from './entities';
import { PoolConnections, type LingeringConnection } from './pool-connections';

const connectionsOf = new WeakMap<DataSource, PoolConnections>();

export function createDataSource(url: string, poolSize = 10): DataSource {
  const connections = new PoolConnections();
  const ds = new DataSource({
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    logging: false,
    extra: { max: poolSize, connectionTimeoutMillis: 10_000, Client: connections.clientClass() },
  });
  connectionsOf.set(ds, connections);
  return ds;
}

/** how long closing waits for the server to hang up on each connection before cutting it */
export const POOL_CLOSE_TIMEOUT_MS = 5_000;

/**
 * Closes the pool and waits until its connections' sockets have closed (the pool itself stops
 * waiting once it has said goodbye). Any still open after `timeoutMs` are cut and returned.
 */
export async function closeDataSource(ds: DataSource, timeoutMs = POOL_CLOSE_TIMEOUT_MS): Promise<LingeringConnection[]> {
  if (ds.isInitialized) await ds.destroy();
  return (await connectionsOf.get(ds)?.closed(timeoutMs)) ?? [];
}

/** A database Loupe cannot reach at start: one line naming where the URL came from, no stack. */
export class DatabaseUnreachableError extends Error {
  constructor(source: string, url: string, cause: Error) {
    super(`cannot connect to ${source} (${redact(url)}): ${cause.message || (cause as NodeJS.ErrnoException).code || cause.name}`);
    this.name = 'DatabaseUnreachableError';
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** Connects and migrates; a connection failure is a DatabaseUnreachableError naming `source`. */
export async function connectDataSource(url: string, source: string): Promise<DataSource> {
  const ds = createDataSource(url);
  try {
    await ds.initialize();
  } catch (e) {
    throw new DatabaseUnreachableError(source, url, e as Error);
  }
  await migrate(ds);
  return ds;
}

/** After the embedded server came back on another port: new connections go there. */
export function pointPoolAt(ds: DataSource, url: string): void {
  const pool = (ds.driver as unknown as { master?: Pool & { options: Record<string, unknown> } }).master;
  if (pool) pool.options.connectionString = url;
}

/** Runs pending migrations under an advisory lock so two processes starting together don't race. */
export async function migrate(ds: DataSource): Promise<string[]> {
  const lock = ds.createQueryRunner();
  await lock.connect();
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtext('loupe_migrations'))`);
    const ran = await ds.runMigrations({ transaction: 'all' });
    return ran.map((m) => m.name);
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(hashtext('loupe_migrations'))`).catch(() => undefined);
    await lock.release();
  }
}
