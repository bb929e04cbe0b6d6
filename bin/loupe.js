#!/usr/bin/env node
'use strict';
const path = require('node:path');
const fs = require('node:fs');

// V8 optimises a function once it has run about 66 KB of bytecode; an eval's trial runs a broad, flat
// set of functions a few times each, and optimising them as they cross that line cost more CPU than
// it saved (about 0.8 ms a trial at -c 1 on the stand-in). Four times the budget leaves only the
// truly hot code to TurboFan: -15% CPU a trial over 300 trials, -11% over 1,500 (bench trial-cost).
// Set before any of Loupe's code is compiled; `LOUPE_V8_FLAGS` replaces it (empty: V8's defaults).
const v8Flags = process.env.LOUPE_V8_FLAGS ?? '--interrupt-budget=270336';
require('node:v8').setFlagsFromString(v8Flags);

const entry = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('loupe: not built yet; run `npm install` (or `npm run build`) first\n');
  process.exit(2);
}
// compiled code kept from earlier runs (compile-cache.js): set up before the first of Loupe's modules loads
const root = path.join(__dirname, '..');
const { enableCompileCache, compileCacheDir, cacheFlags } = require('./compile-cache');
const cacheDir = compileCacheDir(root, process.env);
const compileCache = enableCompileCache(root, cacheDir, cacheFlags(v8Flags));
// and where its require() calls resolve to (resolve-cache.js), kept in the same place
const resolveCache = require('./resolve-cache').enableResolveCache(root, cacheDir, entry);
if (process.env.LOUPE_DEBUG_COMPILE_CACHE)
  process.once('exit', () =>
    process.stderr.write(`loupe compile cache: ${JSON.stringify(compileCache)}\nloupe resolve cache: ${JSON.stringify(resolveCache)}\n`),
  );
require(entry).main(process.argv);
