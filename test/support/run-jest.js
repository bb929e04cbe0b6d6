// `npm test`'s jest: jest itself, with one more failure. Jest runs test files in worker processes
// (one more than the cores), and a worker that a test file left a handle open in (a server, a socket, a
// child, a timer) is killed after the run with only a printed warning and exit 0. A leak is a bug
// to fix, as the exit watchdog says for jest's own process, so that warning fails the run here,
// with what each worker still had open and the test file each handle appeared after (jest itself
// names none; census-environment.js takes the census).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const LEAK_WARNING = 'A worker process has failed to exit gracefully';

// each worker's census (census-environment.js): what its last test files left open
const censusDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-jest-census-'));
process.once('exit', () => fs.rmSync(censusDir, { recursive: true, force: true }));
const jest = spawn(process.execPath, [require.resolve('jest/bin/jest'), ...process.argv.slice(2)], {
  stdio: ['inherit', 'inherit', 'pipe'],
  env: {
    ...process.env,
    LOUPE_JEST_CENSUS_DIR: censusDir,
    // jest colours only a terminal; stderr is a pipe to it now
    ...(process.stderr.isTTY && !process.env.FORCE_COLOR ? { FORCE_COLOR: '1' } : {}),
  },
});

/** Each worker's state after its last test file: the handles still open and the file each appeared after. */
function census() {
  const lines = [];
  for (const name of fs.readdirSync(censusDir).filter((n) => n.endsWith('.json'))) {
    let c;
    try {
      c = JSON.parse(fs.readFileSync(path.join(censusDir, name), 'utf8'));
    } catch {
      continue;
    }
    const resources = Object.entries(c.resources)
      .map(([r, n]) => `${r} ×${n}`)
      .join(', ');
    lines.push(`  worker ${c.pid}, after ${c.lastFiles.join(', ')}: ${resources || 'nothing of its files open'}`);
    for (const h of c.handles) lines.push(`    ${h.what}: open since ${h.after}`);
  }
  return lines.join('\n');
}

let leaked = false;
let tail = '';
jest.stderr.on('data', (chunk) => {
  process.stderr.write(chunk);
  // the warning may arrive split across chunks: keep the end of the previous one
  const text = tail + chunk.toString();
  if (text.includes(LEAK_WARNING)) leaked = true;
  tail = text.slice(-LEAK_WARNING.length);
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => jest.kill(signal));

jest.on('exit', (code, signal) => {
  if (signal) {
    process.stderr.write(`jest was killed by ${signal}\n`);
    process.exit(1);
  }
  if (code === 0 && leaked) {
    process.stderr.write(
      '\nA test file left a handle open in its jest worker (see the warning above), so the run fails.\n' +
        `What each worker had open after its last test file (a handle is put down to the file after which it was first open):\n${census()}\n` +
        'Find it with `npx jest --detectOpenHandles <files>` (in band, it names where each handle was made).\n',
    );
    process.exit(1);
  }
  process.exit(code ?? 1);
});
