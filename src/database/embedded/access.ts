// Who may connect to the embedded Postgres: whoever holds a password from the home's credentials
// file, over loopback TCP, by SCRAM. Loopback rather than a Unix socket in a 0700 directory: the
// socket path would live under LOUPE_HOME (or /var/tmp as root) and break Unix's 107-byte limit on
// deep homes, and TCP keeps every client working unchanged (psql and Grafana on the host, the
// tests' fault proxy, a restart on the same port). With a 192-bit random password, the socket's
// directory would keep out no one that SCRAM does not.
//
// A cluster is secured once, by its superuser: the password set, the non-superuser `loupe_app`
// made owner of the database and of everything in it, and then this pg_hba.conf written. The file's
// first line marks a secured cluster; a cluster without it (a home initialised by an older Loupe,
// with the fixed loupe/loupe superuser, or a first start that was cut short) is secured again.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { APP_ROLE, connectionUrl, LEGACY_PASSWORD, SUPERUSER, type EmbeddedCredentials } from './credentials';

const MARKER = '# loupe-access v1';

export const HBA = `${MARKER}: written by Loupe. Loopback TCP only, SCRAM passwords only (kept in <LOUPE_HOME>/pg-credentials.json).
host all all 127.0.0.1/32 scram-sha-256
host all all ::1/128 scram-sha-256
`;

const hbaFile = (dataDir: string) => path.join(dataDir, 'pg_hba.conf');

export function isSecured(dataDir: string): boolean {
  try {
    return fs.readFileSync(hbaFile(dataDir), 'utf8').startsWith(MARKER);
  } catch {
    return false;
  }
}

// Everything the superuser owns outside the system schemas goes to the app role. Tables first: that
// carries their indexes and the sequences they own; standalone sequences and the rest follow.
const TRANSFER_OWNERSHIP = `
DO $$
DECLARE
  r record;
  kind constant jsonb := '{"r":"TABLE","p":"TABLE","f":"FOREIGN TABLE","v":"VIEW","m":"MATERIALIZED VIEW","S":"SEQUENCE"}';
  mine constant oid := '${SUPERUSER}'::regrole;
BEGIN
  FOR r IN SELECT nspname FROM pg_namespace
           WHERE nspowner = mine AND nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' LOOP
    EXECUTE format('ALTER SCHEMA %I OWNER TO ${APP_ROLE}', r.nspname);
  END LOOP;
  FOR r IN SELECT c.oid::regclass AS name, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relkind IN ('r','p','f','v','m') AND c.relowner = mine
             AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' AND NOT c.relispartition LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${APP_ROLE}', kind->>r.relkind::text, r.name);
  END LOOP;
  -- partitions, and sequences no table owns (ALTER TABLE already carried the others)
  FOR r IN SELECT c.oid::regclass AS name, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relkind IN ('r','p','S') AND c.relowner = mine
             AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${APP_ROLE}', kind->>r.relkind::text, r.name);
  END LOOP;
  FOR r IN SELECT t.oid::regtype AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
           WHERE t.typowner = mine AND t.typtype IN ('e','d','r')
             AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' LOOP
    EXECUTE format('ALTER TYPE %s OWNER TO ${APP_ROLE}', r.name);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE p.proowner = mine AND p.prokind IN ('f','p') AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO ${APP_ROLE}', r.name);
  END LOOP;
END $$`;

async function connectAsSuperuser(port: number, passwords: string[]): Promise<Client> {
  let last: Error | undefined;
  for (const password of passwords) {
    const client = new Client({ connectionString: connectionUrl(port, SUPERUSER, password), connectionTimeoutMillis: 10_000 });
    try {
      await client.connect();
      return client;
    } catch (e) {
      last = e as Error;
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(`cannot connect to the embedded Postgres as ${SUPERUSER} to secure it: ${last?.message ?? 'no password'}`);
}

/**
 * Secures the running server: idempotent, so a start cut short anywhere is finished by the next one.
 * `chown` keeps pg_hba.conf the server's (as root, the server runs as the postgres user).
 */
export async function secureCluster(
  dataDir: string,
  port: number,
  creds: EmbeddedCredentials,
  chown?: { uid: number; gid: number },
): Promise<void> {
  // the new password first: a start cut short after ALTER ROLE is finished with it
  const db = await connectAsSuperuser(port, [creds.superuser, LEGACY_PASSWORD]);
  try {
    await db.query(`SET password_encryption = 'scram-sha-256'`);
    await db.query('BEGIN');
    await db.query(`ALTER ROLE ${SUPERUSER} PASSWORD ${db.escapeLiteral(creds.superuser)}`);
    const exists = await db.query(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [APP_ROLE]);
    // CREATEDB: the test suite and users make scratch databases; it grants no way out of the server
    const attributes = `LOGIN NOSUPERUSER NOCREATEROLE CREATEDB NOREPLICATION NOBYPASSRLS PASSWORD ${db.escapeLiteral(creds.app)}`;
    await db.query(`${exists.rowCount ? 'ALTER' : 'CREATE'} ROLE ${APP_ROLE} WITH ${attributes}`);
    await db.query(`ALTER DATABASE postgres OWNER TO ${APP_ROLE}`);
    await db.query(TRANSFER_OWNERSHIP);
    await db.query('COMMIT');
    fs.writeFileSync(hbaFile(dataDir), HBA);
    if (chown) fs.chownSync(hbaFile(dataDir), chown.uid, chown.gid);
    await db.query('SELECT pg_reload_conf()');
  } finally {
    await db.end().catch(() => undefined);
  }
}
