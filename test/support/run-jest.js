// `npm test`'s jest: jest itself, with one more failure. Jest runs test files in worker processes
// (two on two cores), and a worker that a test file left a handle open in (a server, a socket, a
// child, a timer) is killed after the run with only a printed warning and exit 0. A leak is a bug
// to fix, as the exit watchdog says for jest's own process, so that warning fails the run here.
const { spawn } = require('node:child_process');

const LEAK_WARNING = 'A worker process has failed to exit gracefully';

const jest = spawn(process.execPath, [require.resolve('jest/bin/jest'), ...process.argv.slice(2)], {
  stdio: ['inherit', 'inherit', 'pipe'],
  // jest colours only a terminal; stderr is a pipe to it now
  env: process.stderr.isTTY && !process.env.FORCE_COLOR ? { ...process.env, FORCE_COLOR: '1' } : process.env,
});

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
        'Find it with `npx jest --detectOpenHandles <files>` (in band, it names where each handle was made).\n',
    );
    process.exit(1);
  }
  process.exit(code ?? 1);
});
