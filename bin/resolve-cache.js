'use strict';
// Where the CLI's require() calls resolve to, kept beside the code cache (compile-cache.js). A short
// eval makes about 4,800 resolutions, and Node's resolver looks each one up afresh in every process:
// about 15,000 stat calls (every extension, index file and node_modules folder it tries), a tenth of
// the command's CPU. With the cache a resolution is a map lookup.
//
// An entry maps (the requiring module's folder, the request) to the file, both relative to the
// install, as Node's own in-process cache does. The whole file is dropped when anything that could
// change an answer changes: the Node version, the installed packages (npm rewrites
// node_modules/.package-lock.json on each install), the build (tsc rewrites every output, the CLI's
// entry among them), NODE_PATH or a flag that changes resolution. A cached file of Loupe's own that no
// longer exists is resolved afresh (one stat per file; an installed package's are not checked).
// Builtins, require.resolve with options and anything outside the install go through Node untouched.
// LOUPE_COMPILE_CACHE turns it off or moves it with the code cache.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const FORMAT = 1;
/** node flags that change what a request resolves to */
const RESOLUTION_FLAGS = /^(--preserve-symlinks|--conditions|-C)/;
const INSTALLED = `node_modules${path.sep}`;

function stamp(file) {
  try {
    const s = fs.statSync(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return 'none';
  }
}

/** What every entry rests on; a file made under any other is ignored. */
function fingerprint(root, entry, env = process.env, execArgv = process.execArgv) {
  return [
    FORMAT,
    process.version,
    stamp(path.join(root, 'node_modules', '.package-lock.json')),
    stamp(entry),
    env.NODE_PATH ?? '',
    execArgv.filter((a) => RESOLUTION_FLAGS.test(a)).join(' '),
  ].join('\0');
}

function isFile(file) {
  const s = fs.statSync(file, { throwIfNoEntry: false });
  return s !== undefined && s.isFile();
}

/** The entries a cache file holds, or none when it is unreadable or made under another fingerprint. */
function readEntries(file, print) {
  try {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (doc && doc.fingerprint === print && doc.entries && typeof doc.entries === 'object' && !Array.isArray(doc.entries))
      return new Map(Object.entries(doc.entries).filter(([, v]) => typeof v === 'string'));
  } catch {
    // no cache yet, or one cut short: every resolution goes through Node and the file is written anew
  }
  return new Map();
}

/**
 * Serves require() resolutions made from `root`'s modules from the cache file in `dir`; `entry` is the
 * build's entry module (its stamp stands for the build). Returns what it did, for tests and
 * LOUPE_DEBUG_COMPILE_CACHE. Does nothing when `dir` is null.
 */
function enableResolveCache(root, dir, entry) {
  const stats = { hits: 0, misses: 0, stale: 0, written: false, file: null };
  if (!dir) return stats;
  const file = path.join(dir, `resolve-${process.version}.json`);
  stats.file = file;
  const print = fingerprint(root, entry);
  const entries = readEntries(file, print);
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  /** files this process has seen exist */
  const present = new Set();
  let changed = false;
  const original = Module._resolveFilename;

  Module._resolveFilename = function resolveWithCache(request, parent, isMain, options) {
    const from = parent && parent.path;
    if (options !== undefined || isMain || typeof from !== 'string' || !from.startsWith(prefix) || Module.isBuiltin(request))
      return original.apply(this, arguments);
    const key = `${from.slice(prefix.length)}\0${request}`;
    const cached = entries.get(key);
    if (cached !== undefined) {
      const full = prefix + cached;
      // an installed package's files change only with an install, which drops the whole cache
      if (cached.startsWith(INSTALLED) || present.has(full) || isFile(full)) {
        present.add(full);
        stats.hits++;
        return full;
      }
      stats.stale++;
      entries.delete(key);
      changed = true;
    }
    const resolved = original.apply(this, arguments);
    stats.misses++;
    if (typeof resolved === 'string' && resolved.startsWith(prefix)) {
      entries.set(key, resolved.slice(prefix.length));
      present.add(resolved);
      changed = true;
    }
    return resolved;
  };

  process.once('exit', () => {
    if (!changed) return;
    try {
      fs.mkdirSync(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ fingerprint: print, entries: Object.fromEntries(entries) }));
      fs.renameSync(tmp, file);
      stats.written = true;
    } catch {
      // a cache that cannot be written only costs the next start its lookups
    }
  });
  return stats;
}

module.exports = { enableResolveCache, fingerprint };
