// Two tiers: pure unit tests next to the code (src/**/*.spec.ts), and integration tests under
// test/ that talk to a real Postgres (embedded, started once in globalSetup), the Ollama
// stand-in over HTTP and real MCP servers.
const os = require('node:os');

const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] };

module.exports = {
  // integration tests start real servers and child processes; unit tests finish in milliseconds anyway
  testTimeout: 60000,
  // One worker more than the cores, not jest's cores − 1 (in band on 2 cores): the CLI-heavy files
  // mostly wait on their children, Postgres and the stand-in, and every file has its own database,
  // LOUPE_HOME and ports, so files run side by side. On 2 cores from a fresh clone, jest took 753 s in
  // band, 451 s with 2 workers and 409 s with 3. test/support/run-jest.js fails the run when a worker
  // had to be killed for a handle a test left open.
  maxWorkers: os.availableParallelism() + 1,
  // No forceExit: a test that leaves a handle open (a server, a socket, a child, a timer) would keep
  // jest alive after the verdict when it runs in band, in jest's own process (one CI run hung 90 minutes
  // on a journal still retrying). Such a leak is a bug to fix, so it is not hidden: the exit watchdog
  // names the handles and fails the run if jest has not exited 30 s after the last teardown.
  globalTeardown: '<rootDir>/test/support/exit-watchdog.js',
  // long files first on a fresh clone too, where jest has no timings (weighted-sequencer.js)
  testSequencer: '<rootDir>/test/support/weighted-sequencer.js',
  projects: [
    {
      displayName: 'unit',
      testEnvironment: '<rootDir>/test/support/census-environment.js',
      roots: ['<rootDir>/src'],
      testMatch: ['**/*.spec.ts'],
      transform,
    },
    {
      displayName: 'integration',
      testEnvironment: '<rootDir>/test/support/census-environment.js',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.spec.ts'],
      transform,
      globalSetup: '<rootDir>/test/support/global-setup.js',
      globalTeardown: '<rootDir>/test/support/global-teardown.js',
    },
  ],
};
