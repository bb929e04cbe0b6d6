// The embedded Postgres's passwords: generated once per LOUPE_HOME and kept there in a 0600 file,
// so only the user running Loupe (and root) can connect. Two roles: `loupe`, the cluster's
// superuser, used only by Loupe to set the cluster up; and `loupe_app`, which owns Loupe's data but
// is no superuser (so `COPY … TO PROGRAM` and server-side file access are refused to it).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const SUPERUSER = 'loupe';
export const APP_ROLE = 'loupe_app';
/** what homes initialised before the passwords were random used (upgraded in place on the next start) */
export const LEGACY_PASSWORD = 'loupe';

export interface EmbeddedCredentials {
  superuser: string;
  app: string;
}

export const credentialsFile = (home: string): string => path.join(home, 'pg-credentials.json');

// base64url: nothing to escape in a URL or a connection string
const newPassword = (): string => randomBytes(24).toString('base64url');

export function readCredentials(home: string): EmbeddedCredentials | undefined {
  const file = credentialsFile(home);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const c = JSON.parse(text) as Partial<EmbeddedCredentials>;
  if (typeof c.superuser !== 'string' || typeof c.app !== 'string') throw new Error(`${file} is not a Loupe credentials file`);
  // a copy or an editor may have widened it
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  return { superuser: c.superuser, app: c.app };
}

/** The home's credentials, created on first use (written whole, then renamed: never half a file). */
export function ensureCredentials(home: string): EmbeddedCredentials {
  const existing = readCredentials(home);
  if (existing) return existing;
  const created = { superuser: newPassword(), app: newPassword() };
  const file = credentialsFile(home);
  const staging = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(staging, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(staging, file);
  return created;
}

export function connectionUrl(port: number, user: string, password: string): string {
  return `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}
