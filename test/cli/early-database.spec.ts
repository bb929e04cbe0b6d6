// `loupe eval` and `loupe worker` start the embedded Postgres before the rest of the CLI loads (a
// fresh home says so at once). A command that never opens the application — a bad scenario file —
// still reports its error, and leaves no server behind; help starts nothing.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dataDirFor, runningPostmaster } from '../../src/database/embedded/embedded-postgres';
import { fallbackDataRoot } from '../../src/database/embedded/postgres-binaries';
import { runCli } from '../support/run-cli';

function env(home: string): Record<string, string | undefined> {
  return { DATABASE_URL: undefined, OLLAMA_HOST: undefined, LOUPE_LOG_LEVEL: undefined, LOUPE_HOME: home };
}

describe('the embedded Postgres started early', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-early-db-'));
  });
  afterAll(() => {
    for (const home of fs.readdirSync(dir).map((d) => path.join(dir, d))) {
      const dataDir = dataDirFor(home, () => {});
      if (dataDir !== path.join(home, 'pg')) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is stopped again when the command fails before opening the application (a bad scenario file)', async () => {
    const home = path.join(dir, 'bad-scenario');
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(bad, 'id: bad\nprompt: [unclosed\n');
    const r = await runCli(['eval', bad], env(home), { timeoutMs: 240_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid scenario input, nothing was run/);
    // the fresh home was initialised meanwhile (said at once), and nothing is left running on it
    expect(r.stderr).toMatch(/^loupe: initialising the embedded Postgres in /m);
    expect(runningPostmaster(dataDirFor(home, () => {}))).toBeUndefined();
  }, 300_000);

  it('is not started for help', async () => {
    const home = path.join(dir, 'help');
    const r = await runCli(['eval', '--help'], env(home));
    expect(r.code).toBe(0);
    expect(fs.existsSync(dataDirFor(home, () => {}))).toBe(false);
    // asking where the data would go makes nothing (as root it is under /var/tmp, outside the test's dir)
    expect(fs.existsSync(fallbackDataRoot(home))).toBe(false);
    expect(r.stderr).not.toMatch(/initialising/);
  });
});
