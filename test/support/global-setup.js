// Starts one embedded Postgres for the whole integration run (unless DATABASE_URL is given), with
// the same code Loupe uses (dist/, built by `npm test`), so a checkout in a private directory works
// as root too. Each test file then creates its own database in it (see test-app.ts).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

module.exports = async function globalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.LOUPE_TEST_DATABASE_URL = process.env.DATABASE_URL;
    return;
  }
  const built = path.join(__dirname, '..', '..', 'dist', 'src', 'database', 'embedded', 'embedded-postgres.js');
  if (!fs.existsSync(built)) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does)');
  const { startEmbeddedPostgres } = require(built);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-test-pg-'));
  fs.chmodSync(dir, 0o755);
  const handle = await startEmbeddedPostgres(dir, () => {}, {
    dataDir: path.join(dir, 'data'),
    persistent: false,
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
  });
  globalThis.__LOUPE_TEST_PG__ = { handle, dir };
  process.env.LOUPE_TEST_DATABASE_URL = handle.url;
};
