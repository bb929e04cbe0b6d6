// A connection URL for a person (`loupe db url`): psql, a notebook or Grafana on this machine get in
// as the app role, the same one Loupe's own connections use, never as the superuser.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { APP_ROLE, connectionUrl, credentialsFile, readCredentials } from './credentials';
import { dataDirFor } from './postgres-binaries';
import { runningPostmaster } from './postmaster';

export interface UserUrl {
  url: string;
  /** false: the URL names the port the server last ran on; it is down until a Loupe process starts it */
  running: boolean;
}

export function embeddedUserUrl(home: string): UserUrl {
  const creds = readCredentials(home);
  if (!creds)
    throw new Error(`no embedded Postgres credentials in ${credentialsFile(home)}: any loupe command that uses the database creates them`);
  const dataDir = dataDirFor(home, () => {});
  const live = runningPostmaster(dataDir);
  let port = live?.port;
  if (!port) {
    const last = Number(fs.readFileSync(path.join(`${dataDir}.run`, 'port'), { encoding: 'utf8', flag: 'a+' }).trim());
    if (!Number.isInteger(last) || last <= 0) throw new Error(`the embedded Postgres in ${dataDir} has never run`);
    port = last;
  }
  return { url: connectionUrl(port, APP_ROLE, creds.app), running: live !== undefined };
}
