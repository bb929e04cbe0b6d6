#!/usr/bin/env node
'use strict';
const path = require('node:path');
const fs = require('node:fs');

const entry = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('loupe: not built yet; run `npm install` (or `npm run build`) first\n');
  process.exit(2);
}
require(entry).main(process.argv);
