// `npm test` runs jest through test/support/run-jest.js, which fails a run whose jest workers had to
// be killed for a handle a test file left open (jest alone prints a warning and exits 0). This runs
// the wrapper on two small suites of plain JS test files, in worker processes, one of them leaking:
// the failure names the file that left the handle (census-environment.js).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from '../support/run-cli';

/** Enough files that jest uses workers even without timings (it runs ≤ 20 fast files in band). */
const FILES = 22;

function runWrapped(dir: string): Promise<{ code: number | null; stderr: string }> {
  const config = JSON.stringify({
    rootDir: dir,
    testMatch: ['**/*.check.js'],
    testEnvironment: path.join(ROOT, 'test', 'support', 'census-environment.js'),
  });
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'test', 'support', 'run-jest.js'),
        '--config',
        config,
        '--maxWorkers=2',
        '--cacheDirectory',
        path.join(dir, '.cache'),
      ],
      { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

function suite(leak: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-run-jest-'));
  for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(dir, `t${i}.check.js`), "it('passes', () => expect(1).toBe(1));\n");
  if (leak) {
    fs.writeFileSync(
      path.join(dir, 'leak.check.js'),
      "const net = require('node:net');\nit('leaves a server listening', (done) => { net.createServer().listen(0, done); });\n",
    );
    fs.writeFileSync(path.join(dir, 'timer.check.js'), "it('leaves a timer pending', () => { setTimeout(() => undefined, 60_000); });\n");
  }
  return dir;
}

describe("npm test's jest wrapper", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('passes a clean run with its tests in workers', async () => {
    const dir = suite(false);
    dirs.push(dir);
    const run = await runWrapped(dir);
    expect(run.stderr).toContain(`Tests:       ${FILES} passed`);
    expect(run.code).toBe(0);
  }, 120_000);

  it('fails a run whose passing tests left a handle open in a worker, and says why', async () => {
    const dir = suite(true);
    dirs.push(dir);
    const run = await runWrapped(dir);
    expect(run.stderr).toContain(`Tests:       ${FILES + 2} passed`);
    expect(run.stderr).toContain('left a handle open in its jest worker');
    // and names the files: the server one left listening and the timer the other left pending
    expect(run.stderr).toMatch(/Server port \d+: open since leak\.check\.js/);
    expect(run.stderr).toContain('setTimeout of 60000 ms: open since timer.check.js');
    expect(run.code).toBe(1);
  }, 120_000);
});
