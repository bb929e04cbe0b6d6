// Two tiers: pure unit tests next to the code (src/**/*.spec.ts), and integration tests under
// test/ that talk to a real Postgres (embedded, started once in globalSetup), the Ollama
// stand-in over HTTP and real MCP servers.
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] };

module.exports = {
  // integration tests start real servers and child processes; unit tests finish in milliseconds anyway
  testTimeout: 60000,
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
