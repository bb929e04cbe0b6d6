'use strict';
// V8's code cache for the CLI's own CommonJS modules, kept beside the install. A command loads about
// 2,000 modules (Nest, TypeORM, zod, Loupe), and compiling them was a quarter of a short eval's CPU;
// with the cache V8 deserialises what an earlier run compiled instead. Node 22 does this itself
// (module.enableCompileCache); Node 20, which Loupe supports, does not.
//
// One blob per Node version, V8 flags and architecture, in node_modules/.cache/loupe/: an index (file,
// content hash, offset, length) and the cached data. A module is served from it only when its source
// hashes the same (V8 itself checks little more than the source's length); anything else (a changed
// file, ESM, a cache V8 rejects, a blob that does not parse, a directory not writable) compiles as
// Node would. At exit, a run that compiled anything afresh writes the blob again (to a temporary file,
// then renamed over it), keeping the entries of modules it did not load. LOUPE_COMPILE_CACHE=0 turns
// it off; another value names the directory.
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

const MAGIC = 'loupe-v8-cache-1\n';
/**
 * A script V8 makes from cached data loses its dynamic import() callback on Node 20 (the import throws
 * ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING on a warm run: the OTLP exporter's did), so a module that
 * may import() is compiled by Node itself.
 */
const DYNAMIC_IMPORT = /\bimport\s*\(/g;

/**
 * Whether `source` may call import(). A mention on a comment line does not count: JSDoc types
 * (`{import('./x').T}`) put 56 modules of a short eval (165 KB: Nest's injector, commander, fast-uri)
 * through Node's own compile, about 40 ms of each start. A comment line is one whose text before the
 * mention starts with `//`, or starts with `*` or `/*` inside a block comment still open there.
 * Anything else counts, a mention in a string too, which only costs that module its cache.
 */
function mayImportDynamically(source) {
  DYNAMIC_IMPORT.lastIndex = 0;
  for (let m = DYNAMIC_IMPORT.exec(source); m; m = DYNAMIC_IMPORT.exec(source)) {
    const before = source.slice(source.lastIndexOf('\n', m.index) + 1, m.index).trimStart();
    if (before.startsWith('//')) continue;
    const commentLine = (before.startsWith('*') || before.startsWith('/*')) && !before.includes('*/');
    if (commentLine && source.lastIndexOf('/*', m.index) > source.lastIndexOf('*/', m.index)) continue;
    return true;
  }
  return false;
}

/** The blob's bytes: MAGIC, the index as one JSON line, then each entry's data back to back. */
function encodeBlob(entries) {
  const index = [];
  const parts = [];
  let offset = 0;
  for (const [file, { hash, data }] of entries) {
    index.push([file, hash, offset, data.length]);
    parts.push(data);
    offset += data.length;
  }
  return Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify(index)}\n`), ...parts]);
}

/** file → { hash, data } from a blob's bytes; an empty map for anything that is not one. */
function decodeBlob(bytes) {
  const entries = new Map();
  if (!bytes || bytes.length < MAGIC.length || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return entries;
  const end = bytes.indexOf(10, MAGIC.length);
  if (end < 0) return entries;
  let index;
  try {
    index = JSON.parse(bytes.toString('utf8', MAGIC.length, end));
  } catch {
    return entries;
  }
  if (!Array.isArray(index)) return entries;
  const base = end + 1;
  for (const item of index) {
    if (!Array.isArray(item) || item.length !== 4) return new Map();
    const [file, hash, offset, length] = item;
    if (typeof file !== 'string' || typeof hash !== 'string' || !Number.isInteger(offset) || !Number.isInteger(length)) return new Map();
    if (offset < 0 || length < 0 || base + offset + length > bytes.length) return new Map();
    entries.set(file, { hash, data: bytes.subarray(base + offset, base + offset + length) });
  }
  return entries;
}

function sourceHash(content) {
  return crypto.createHash('sha1').update(content).digest('base64');
}

// Node options that only name a file, a directory or a port for this run, or start a profiler: they
// change no compiled code, and keying blobs on them would make one per run (a profile's directory)
const PER_RUN_OPTION =
  /^(--(cpu-prof|heap-prof|diagnostic-dir|report-|redirect-warnings|require|import|env-file|title|inspect|debug-port)|-r$)/;
const TAKES_NEXT_ARGUMENT =
  /^(-r|--require|--import|--env-file|--title|--redirect-warnings|--diagnostic-dir|--report-directory|--report-filename|--(cpu|heap)-prof-(dir|name|interval))$/;

/**
 * What the blob is keyed on besides Node's version: Loupe's V8 flags and the process's own (its
 * command line and NODE_OPTIONS). V8 rejects code cached under other flags (`--expose-gc`,
 * `--max-semi-space-size`), so without them in the key, runs with and without such a flag (`npm run
 * bench` and the CLI it starts) each rejected the other's blob and wrote it again.
 */
function cacheFlags(v8Flags, execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '') {
  const args = [...execArgv, ...nodeOptions.split(/\s+/).filter(Boolean)];
  const kept = [];
  for (let i = 0; i < args.length; i++) {
    if (!PER_RUN_OPTION.test(args[i])) kept.push(args[i]);
    else if (TAKES_NEXT_ARGUMENT.test(args[i])) i++;
  }
  return [v8Flags, ...kept.sort()].join(' ').trim();
}

/** The blob's path for this Node, the flags (cacheFlags) and this machine's architecture (V8 rejects data from any other). */
function blobPath(dir, flags) {
  const key = sourceHash(`${process.version}\0${process.arch}\0${flags}`).replace(/[/+=]/g, '').slice(0, 16);
  return path.join(dir, `v8-${process.version}-${process.arch}-${key}.blob`);
}

/**
 * Serves `root`'s CommonJS modules (its dist/ and node_modules/) from the cache in `dir`; returns
 * what it did, for tests and `LOUPE_DEBUG`. Does nothing when `dir` is null.
 */
function enableCompileCache(root, dir, flags) {
  const stats = { hits: 0, compiled: 0, rejected: 0, fallbacks: 0, written: false, blob: null };
  if (!dir) return stats;
  const blob = blobPath(dir, flags);
  stats.blob = blob;
  let cached;
  try {
    cached = decodeBlob(fs.readFileSync(blob));
  } catch {
    cached = new Map();
  }
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  /** what this process compiled: file → { hash, script } */
  const compiled = new Map();
  const originalCompile = Module.prototype._compile;

  Module.prototype._compile = function compileWithCache(content, filename, format) {
    if (format === 'module' || !filename.startsWith(prefix) || !filename.endsWith('.js') || mayImportDynamically(content))
      return originalCompile.call(this, content, filename, format);
    const hash = sourceHash(content);
    const entry = cached.get(filename);
    const cachedData = entry && entry.hash === hash ? entry.data : undefined;
    let script;
    try {
      script = new vm.Script(Module.wrap(content), {
        filename,
        cachedData,
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch {
      // ESM syntax in a .js file, or anything V8 will not compile as a script: Node's own path decides
      stats.fallbacks++;
      return originalCompile.call(this, content, filename, format);
    }
    if (cachedData && !script.cachedDataRejected) stats.hits++;
    else {
      if (cachedData) stats.rejected++;
      else stats.compiled++;
      compiled.set(filename, { hash, script });
    }
    const fn = script.runInThisContext({ displayErrors: true });
    return fn.call(this.exports, this.exports, makeRequire(this), this, filename, path.dirname(filename));
  };

  process.once('exit', () => {
    if (compiled.size === 0) return;
    try {
      // at exit the scripts' data also holds the functions compiled lazily while the command ran
      for (const [file, { hash, script }] of compiled) cached.set(file, { hash, data: script.createCachedData() });
      // modules gone since (an upgrade, a rebuild) leave the blob, so it holds what exists, not all that ever did
      for (const file of cached.keys()) if (!compiled.has(file) && !fs.existsSync(file)) cached.delete(file);
      fs.mkdirSync(dir, { recursive: true });
      const tmp = `${blob}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, encodeBlob(cached));
      fs.renameSync(tmp, blob);
      stats.written = true;
    } catch {
      // a cache that cannot be written (read-only install, full disk) only costs the next start its compile
    }
  });
  return stats;
}

/**
 * `require` as Node gives a CommonJS module (lib/internal/modules/helpers.js makeRequireFunction). What
 * Node's own _compile adds beyond this (a stat cache across nested requires, require(esm) cycle checks,
 * policy manifests) the CLI's modules do not rely on.
 */
function makeRequire(mod) {
  const require = function require(id) {
    return mod.require(id);
  };
  require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

/**
 * The cache directory LOUPE_COMPILE_CACHE names: off for 0, the install's node_modules/.cache/loupe by
 * default; off too under source maps or the inspector.
 */
function compileCacheDir(root, env, execArgv = process.execArgv) {
  const setting = env.LOUPE_COMPILE_CACHE;
  if (setting === '0' || setting === 'off' || setting === 'false') return null;
  // Node maps stack traces through source maps, and a debugger stops on a first line, in its own
  // compile path only: a run asking for either gets that path
  const nodeOptions = `${execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`;
  if (process.sourceMapsEnabled || /--(enable-source-maps|inspect)/.test(nodeOptions)) return null;
  if (setting) return path.resolve(setting);
  return path.join(root, 'node_modules', '.cache', 'loupe');
}

module.exports = { enableCompileCache, compileCacheDir, cacheFlags, encodeBlob, decodeBlob, blobPath, mayImportDynamically };
