// Only Loupe gets into its embedded Postgres: random passwords kept in a 0600 file under LOUPE_HOME,
// SCRAM only, and Loupe's own connections as a role that is no superuser (no `COPY … TO PROGRAM`).
// A home initialised by an older Loupe (superuser loupe/loupe, `password` auth) is secured in place.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/common/free-port';
import { connectDataSource } from '../../src/database/data-source';
import { credentialsFile } from '../../src/database/embedded/credentials';
import { dataDirFor, startEmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { locatePostgresBinaries } from '../../src/database/embedded/postgres-binaries';
import { startServer, stopServer } from '../../src/database/embedded/postmaster';
import { runCli } from '../support/run-cli';

async function connectError(url: string): Promise<string> {
  const db = new Client({ connectionString: url });
  try {
    await db.connect();
  } catch (e) {
    return (e as Error).message;
  } finally {
    await db.end().catch(() => undefined);
  }
  return 'connected';
}

async function withClient<T>(url: string, fn: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

const withUser = (url: string, user: string, password: string) => {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  return u.toString();
};

/** A data directory exactly as Loupe initialised it before: superuser loupe/loupe, `password` auth. */
function initialiseTheOldWay(dataDir: string): void {
  const bins = locatePostgresBinaries(() => {});
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-old-pw-'));
  fs.writeFileSync(path.join(pwDir, 'pw'), 'loupe\n', { mode: 0o644 });
  fs.chmodSync(pwDir, 0o755);
  if (bins.runAs) fs.chownSync(dataDir, bins.runAs.uid, bins.runAs.gid);
  try {
    execFileSync(
      bins.initdb,
      [
        `--pgdata=${dataDir}`,
        '--auth=password',
        '--username=loupe',
        `--pwfile=${path.join(pwDir, 'pw')}`,
        '--lc-messages=C',
        '--locale=C',
        '--encoding=UTF8',
      ],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' }, stdio: 'pipe', ...(bins.runAs ?? {}) },
    );
  } finally {
    fs.rmSync(pwDir, { recursive: true, force: true });
  }
}

describe('embedded Postgres access', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-access-'));
    fs.chmodSync(tmp, 0o755); // as root, the postgres user must reach the data under it
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('lets in only the app role with its random password, which cannot run programs; `loupe db url` connects', async () => {
    const home = path.join(tmp, 'fresh');
    const pg = await startEmbeddedPostgres(home, () => {});
    try {
      expect(fs.statSync(credentialsFile(home)).mode & 0o777).toBe(0o600);
      const creds = JSON.parse(fs.readFileSync(credentialsFile(home), 'utf8')) as { superuser: string; app: string };
      expect(new URL(pg.url).username).toBe('loupe_app');
      expect(decodeURIComponent(new URL(pg.url).password)).toBe(creds.app);

      expect(await connectError(withUser(pg.url, 'loupe', 'loupe'))).toMatch(/password authentication failed for user "loupe"/);
      expect(await connectError(withUser(pg.url, 'loupe_app', 'loupe'))).toMatch(/password authentication failed/);
      expect(await connectError(withUser(pg.url, 'loupe_app', `${creds.app}x`))).toMatch(/password authentication failed/);
      expect(fs.readFileSync(path.join(pg.dataDir, 'pg_hba.conf'), 'utf8')).not.toMatch(/\b(trust|password|md5)\s*$/m);

      // Loupe's schema is created by the app role itself, and it is no superuser
      const ds = await connectDataSource(pg.url, 'the embedded Postgres');
      await ds.destroy();
      const marker = path.join(tmp, 'copy-to-program-ran');
      await withClient(pg.url, async (db) => {
        const me = await db.query(`SELECT current_user AS who, rolsuper FROM pg_roles WHERE rolname = current_user`);
        expect(me.rows[0]).toEqual({ who: 'loupe_app', rolsuper: false });
        const owners = await db.query(`SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'`);
        expect(owners.rows).toEqual([{ tableowner: 'loupe_app' }]);
        await expect(db.query(`COPY (SELECT 1) TO PROGRAM 'id > ${marker}'`)).rejects.toThrow(
          /permission denied to COPY to or from an external program/,
        );
      });
      expect(fs.existsSync(marker)).toBe(false);

      const printed = await runCli(['db', 'url'], { LOUPE_HOME: home, DATABASE_URL: undefined });
      expect(printed.code).toBe(0);
      const who = await withClient(printed.stdout.trim(), async (db) => (await db.query('SELECT current_user AS who')).rows[0].who);
      expect(who).toBe('loupe_app');
    } finally {
      await pg.stop();
    }
  }, 120_000);

  it('secures a home an older Loupe initialised, keeping its data', async () => {
    const home = path.join(tmp, 'old');
    fs.mkdirSync(home, { recursive: true, mode: 0o755 });
    const dataDir = dataDirFor(home, () => {});
    initialiseTheOldWay(dataDir);
    const bins = locatePostgresBinaries(() => {});
    const old = await startServer(bins, dataDir, await freePort(), []);
    const oldUrl = `postgres://loupe:loupe@127.0.0.1:${old.port}/postgres`;
    let migrations: unknown;
    try {
      const ds = await connectDataSource(oldUrl, 'the old embedded Postgres');
      migrations = await ds.query(`SELECT name FROM migrations ORDER BY id`);
      await ds.destroy();
      await withClient(oldUrl, async (db) => {
        // what pg-boss leaves: its own schema, an enum, a function, a standalone sequence
        await db.query(`CREATE SCHEMA kept; CREATE TYPE kept.state AS ENUM ('a', 'b'); CREATE SEQUENCE kept.seq`);
        await db.query(`CREATE TABLE kept.rows (id serial PRIMARY KEY, state kept.state, note text)`);
        await db.query(`CREATE FUNCTION kept.two() RETURNS int LANGUAGE sql AS 'SELECT 2'`);
        await db.query(`INSERT INTO kept.rows (state, note) VALUES ('b', 'written before the upgrade')`);
      });
    } finally {
      await stopServer(bins, dataDir);
    }
    expect(fs.existsSync(credentialsFile(home))).toBe(false);

    const pg = await startEmbeddedPostgres(home, () => {});
    try {
      expect(fs.statSync(credentialsFile(home)).mode & 0o777).toBe(0o600);
      expect(await connectError(withUser(pg.url, 'loupe', 'loupe'))).toMatch(/password authentication failed for user "loupe"/);
      await withClient(pg.url, async (db) => {
        expect((await db.query(`SELECT state, note FROM kept.rows`)).rows).toEqual([{ state: 'b', note: 'written before the upgrade' }]);
        expect((await db.query(`SELECT kept.two() AS two, nextval('kept.seq') AS n`)).rows).toEqual([{ two: 2, n: '1' }]);
        // the app role owns what the superuser did: it can change it (migrations) and add to it
        await db.query(
          `ALTER TABLE kept.rows ADD COLUMN added int; ALTER TYPE kept.state ADD VALUE 'c'; INSERT INTO kept.rows (state) VALUES ('a')`,
        );
        const left = await db.query(
          `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relowner = 'loupe'::regrole AND n.nspname IN ('public', 'kept')`,
        );
        expect(left.rows[0].n).toBe(0);
      });
      // Loupe's migrations run as the app role on the upgraded home
      const ds = await connectDataSource(pg.url, 'the embedded Postgres');
      expect(await ds.query(`SELECT name FROM migrations ORDER BY id`)).toEqual(migrations);
      await ds.destroy();
    } finally {
      await pg.stop();
    }
  }, 120_000);
});
