#!/usr/bin/env node
// Rewrites test/support/test-weights.json (the order of test files on a fresh clone, see
// test/support/weighted-sequencer.js) from a jest `--json` report:
//   npm test -- --json --outputFile=/tmp/jest.json && node scripts/update-test-weights.js /tmp/jest.json
// Each file's wall time in that run, in seconds; files under a second are left out (they run last).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const OUT = path.join(ROOT, 'test', 'support', 'test-weights.json');
const MIN_SECONDS = 1;

const report = process.argv[2];
if (!report) {
  process.stderr.write('usage: node scripts/update-test-weights.js <jest --json report>\n');
  process.exit(2);
}
const { testResults } = JSON.parse(fs.readFileSync(report, 'utf8'));
if (!Array.isArray(testResults)) throw new Error(`${report}: no testResults (not a jest --json report)`);
const seconds = {};
for (const r of testResults
  .map((t) => ({ file: path.relative(ROOT, t.name).split(path.sep).join('/'), s: (t.endTime - t.startTime) / 1_000 }))
  .filter((t) => t.s >= MIN_SECONDS)
  .sort((a, b) => b.s - a.s))
  seconds[r.file] = Math.round(r.s * 10) / 10;
const note = `wall seconds per test file in one \`npm test\` (${new Date().toISOString().slice(0, 10)}); files under ${MIN_SECONDS} s left out`;
fs.writeFileSync(OUT, `${JSON.stringify({ note, seconds }, null, 2)}\n`);
process.stdout.write(`${Object.keys(seconds).length} files weighed into ${path.relative(ROOT, OUT)}\n`);
