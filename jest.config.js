// Two tiers: pure unit tests next to the code (src/**/*.spec.ts), and integration tests under
// test/ that talk to a real Postgres (embedded, started once in globalSetup), the Ollama
// stand-in over HTTP and real MCP servers.
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] };

module.exports = {
  // integration tests start real servers and child processes; unit tests finish in milliseconds anyway
  testTimeout: 60000,
  // A failed test can leave a handle open (a cut proxy, a journal still retrying): on 2 cores jest runs
  // in band, and such a handle can keep the process alive after the run (CI's run that failed in the
  // journal tests then ran out its 90 minutes with no verdict). Exit when the run is done;
  // globalTeardown still stops the embedded Postgres.
  forceExit: true,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/src'],
      testMatch: ['**/*.spec.ts'],
      transform,
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.spec.ts'],
      transform,
      globalSetup: '<rootDir>/test/support/global-setup.js',
      globalTeardown: '<rootDir>/test/support/global-teardown.js',
    },
  ],
};
