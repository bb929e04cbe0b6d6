#!/usr/bin/env node
// Mutation check of the loop and approval core: applies each named mutant of scripts/mutants.js to a
// copy of the tree (never the working tree: an interrupted run leaves the sources as they were),
// runs that mutant's tests with jest (ts-jest, as the suite does: nothing is built), and counts it
// killed when they fail. Prints the score and every surviving mutant; exit 1 if one survives, 2 if
// the unmutated tests fail or a mutant no longer matches its code.
//
//   node scripts/mutation-check.js [--only name,name] [--tests file,file] [--list] [--keep]
//
// --tests runs the given test files against each mutant instead of its own list (does this test
// alone kill it?).
//
// Integration tests share one embedded Postgres for the whole run (dist/ must be built: `npm run
// build`), or the one DATABASE_URL names.
'use strict';
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const MUTANTS = require('./mutants');
// what the copy leaves out (node_modules and dist are linked, not copied)
const SKIP = new Set(['.git', 'node_modules', 'dist', '.loupe', 'test-output', 'coverage', 'tmp']);

function parseArgs(argv) {
  const opts = { only: undefined, tests: undefined, list: false, keep: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--only') opts.only = argv[++i].split(',');
    else if (argv[i] === '--tests') opts.tests = argv[++i].split(',');
    else if (argv[i] === '--list') opts.list = true;
    else if (argv[i] === '--keep') opts.keep = true;
    else throw new Error(`unknown argument ${argv[i]} (use --only name,name | --tests file,file | --list | --keep)`);
  }
  return opts;
}

/** Applies a mutant's edits to `text`; each `from` must occur exactly once. */
function mutate(text, mutant) {
  let out = text;
  for (const [from, to] of mutant.edits) {
    const at = out.indexOf(from);
    if (at < 0 || out.indexOf(from, at + 1) >= 0)
      return { ok: false, why: `${at < 0 ? 'not found' : 'found more than once'} in ${mutant.file}: ${JSON.stringify(from.slice(0, 80))}` };
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  return { ok: true, text: out };
}

/** A copy of the tree at a stable path (so jest's transform cache carries over between runs). */
function copyTree() {
  const dir = path.join(os.tmpdir(), `loupe-mutation-${crypto.createHash('sha1').update(ROOT).digest('hex').slice(0, 8)}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const entry of fs.readdirSync(ROOT)) {
    if (SKIP.has(entry)) continue;
    fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true, verbatimSymlinks: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  if (fs.existsSync(path.join(ROOT, 'dist'))) fs.symlinkSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), 'dir');
  return dir;
}

async function startPostgres() {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  const built = path.join(ROOT, 'dist', 'src', 'database', 'embedded', 'embedded-postgres.js');
  if (!fs.existsSync(built)) throw new Error('dist/ is missing: run `npm run build` first');
  const { startEmbeddedPostgres } = require(built);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-mutation-pg-'));
  fs.chmodSync(dir, 0o755);
  const handle = await startEmbeddedPostgres(dir, () => {}, {
    dataDir: path.join(dir, 'data'),
    persistent: false,
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
  });
  return {
    url: handle.url,
    stop: async () => {
      await handle.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs jest on `tests` in the copy; true when every test passed. */
function runTests(dir, tests, databaseUrl) {
  const jest = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
  const r = spawnSync(process.execPath, [jest, '--ci', '--silent', '--bail', '--runTestsByPath', ...tests], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: databaseUrl, FORCE_COLOR: '0' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { passed: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const chosen = opts.only ? MUTANTS.filter((m) => opts.only.includes(m.name)) : MUTANTS;
  const mutants = opts.tests ? chosen.map((m) => ({ ...m, tests: opts.tests })) : chosen;
  if (opts.only && chosen.length !== opts.only.length)
    throw new Error(`unknown mutant in --only; known: ${MUTANTS.map((m) => m.name).join(', ')}`);
  if (opts.list) {
    for (const m of mutants) console.log(`${m.name}  ${m.file}  — ${m.why}\n    tests: ${m.tests.join(', ')}`);
    return 0;
  }

  // every mutant must still match its code: a stale one would count as neither killed nor survived
  const stale = mutants.flatMap((m) => {
    const r = mutate(fs.readFileSync(path.join(ROOT, m.file), 'utf8'), m);
    return r.ok ? [] : [`${m.name}: ${r.why}`];
  });
  if (stale.length) {
    console.error(`stale mutants (their code changed; update scripts/mutants.js):\n  ${stale.join('\n  ')}`);
    return 2;
  }

  const dir = copyTree();
  const pg = await startPostgres();
  const cleanup = () => {
    if (!opts.keep) fs.rmSync(dir, { recursive: true, force: true });
  };
  // Ctrl-C: the working tree was never touched; drop the copy and stop Postgres
  const onSignal = (signal) => {
    cleanup();
    pg.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const started = Date.now();
    // the tests must pass unmutated, or a failure says nothing about a mutant
    const allTests = [...new Set(mutants.flatMap((m) => m.tests))];
    const baseline = runTests(dir, allTests, pg.url);
    if (!baseline.passed) {
      console.error(`the unmutated tests fail; fix them first:\n${baseline.output.slice(-6000)}`);
      return 2;
    }
    console.log(`baseline: ${allTests.length} test files pass unmutated (${seconds(Date.now() - started)})`);

    const survivors = [];
    for (const m of mutants) {
      const file = path.join(dir, m.file);
      const original = fs.readFileSync(file, 'utf8');
      const t0 = Date.now();
      let result;
      try {
        fs.writeFileSync(file, mutate(original, m).text);
        result = runTests(dir, m.tests, pg.url);
      } finally {
        fs.writeFileSync(file, original);
      }
      const killed = !result.passed;
      if (!killed) survivors.push(m);
      console.log(`${killed ? 'killed  ' : 'SURVIVED'} ${m.name} (${seconds(Date.now() - t0)})`);
    }
    const killedCount = mutants.length - survivors.length;
    console.log(
      `\nmutation score: ${killedCount} of ${mutants.length} killed (${((100 * killedCount) / mutants.length).toFixed(0)}%) in ${seconds(Date.now() - started)}`,
    );
    for (const m of survivors) console.log(`surviving mutant ${m.name} — ${m.why}\n    ${m.file}; tests: ${m.tests.join(', ')}`);
    return survivors.length ? 1 : 0;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    cleanup();
    await pg.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  },
);
