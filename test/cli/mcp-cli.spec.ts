// `loupe mcp` through the built command: flags checked before anything loads (exit 2), the
// registry in Postgres, health that fails the command (exit 1) while any server is unhealthy.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createTestDatabase } from '../support/test-app';
import { ROOT, runCli } from '../support/run-cli';

const SLOW_TOOLS = path.join(ROOT, 'scenarios', 'fixtures', 'slow-tools-mcp-server.js');
const FILESYSTEM = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

describe('loupe mcp (the built CLI)', () => {
  let env: Record<string, string | undefined>;
  let tmp: string;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-mcp-cli-'));
    // a database nobody can reach: bad input must be answered (exit 2) before one is needed (exit 1)
    env = { LOUPE_HOME: path.join(tmp, 'home'), DATABASE_URL: 'postgres://loupe@127.0.0.1:1/unreachable', OLLAMA_HOST: undefined };
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it.each([
    ['neither --command nor --url', ['mcp', 'add', 'x'], /give --command .* or --url/],
    ['both --command and --url', ['mcp', 'add', 'x', '--command', 'node', '--url', 'http://h/mcp'], /one of them/],
    [
      'a bad name and a bad URL, named by flag',
      ['mcp', 'add', 'Bad', '--url', 'ftp://h/mcp'],
      /NAME: lowercase.*--url: must be an http:\/\/ or https:\/\/ URL/,
    ],
    ['a header without a value', ['mcp', 'add', 'x', '--url', 'http://h/mcp', '--header', 'Authorization'], /--header: expected KEY=VALUE/],
    [
      'an --env for an HTTP server',
      ['mcp', 'add', 'x', '--url', 'http://h/mcp', '--env', 'A=b'],
      /--arg, --env and --cwd go with --command/,
    ],
    ['a relative --cwd', ['mcp', 'add', 'x', '--command', 'node', '--cwd', 'rel'], /--cwd: must be an absolute path/],
    ['a bad name to remove', ['mcp', 'rm', 'Not A Name'], /NAME: lowercase/],
  ])('exits 2 for %s, before touching the database', async (_what, args, message) => {
    const run = await runCli(args, env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/cannot connect/);
  });

  // ten CLI starts in a row (about 1.3 s of CPU each) and two health checks: a guard against a hang,
  // sized for a loaded machine, where one start can take three times as long
  it('adds, lists, checks and removes servers; health exits 1 while one is unhealthy', async () => {
    const db = { ...env, DATABASE_URL: await createTestDatabase() };
    const added = await runCli(
      ['mcp', 'add', 'slow-tools', '--command', process.execPath, '--arg', SLOW_TOOLS, '--env', 'API_KEY=hidden', '--json'],
      db,
    );
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      name: 'slow-tools',
      transport: 'stdio',
      config: { env: { API_KEY: '***' } },
      status: 'not_checked',
    });
    const fsServer = await runCli(['mcp', 'add', 'filesystem', '--command', process.execPath, '--arg', FILESYSTEM, '--arg', tmp], db);
    expect(fsServer).toMatchObject({ code: 0, stdout: `added filesystem (stdio: ${process.execPath} ${FILESYSTEM} ${tmp})\n` });
    // an argument that looks like a flag is still an argument
    expect(
      (await runCli(['mcp', 'add', 'broken', '--command', process.execPath, '--arg', '-e', '--arg', 'process.exit(4)'], db)).code,
    ).toBe(0);
    expect(
      (await runCli(['mcp', 'add', 'nowhere', '--url', 'http://127.0.0.1:9/mcp', '--header', 'Authorization=Bearer t'], db)).code,
    ).toBe(0);

    const taken = await runCli(['mcp', 'add', 'broken', '--url', 'http://127.0.0.1:9/mcp'], db);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('an MCP server named broken is already registered');

    const list = await runCli(['mcp', 'list', '--json'], db);
    expect(list.code).toBe(0);
    expect(
      JSON.parse(list.stdout).map((s: { name: string; transport: string; status: string }) => [s.name, s.transport, s.status]),
    ).toEqual([
      ['broken', 'stdio', 'not_checked'],
      ['filesystem', 'stdio', 'not_checked'],
      ['nowhere', 'http', 'not_checked'],
      ['slow-tools', 'stdio', 'not_checked'],
    ]);

    const unhealthy = await runCli(['mcp', 'health', '--json', '--timeout-ms', '5000'], db);
    expect(unhealthy.code).toBe(1);
    const report = JSON.parse(unhealthy.stdout);
    expect(report).toMatchObject({ total: 4, healthy: 2, failed: 2 });
    const byName = Object.fromEntries(report.servers.map((s: { name: string }) => [s.name, s]));
    expect(byName.filesystem).toMatchObject({ status: 'connected', toolCount: expect.any(Number) });
    expect(byName.broken).toMatchObject({ status: 'failed', lastError: expect.stringContaining('exited with code 4') });
    expect(byName.nowhere).toMatchObject({ status: 'failed', lastError: expect.stringContaining('fetch failed') });

    const text = await runCli(['mcp', 'list'], db);
    expect(text.stdout).toMatch(/slow-tools\s+stdio .*\n\s+connected, 3 tools, \d+ ms/);
    expect(text.stdout).toMatch(/broken\s+stdio .*\n\s+failed: .*exited with code 4/);

    expect(await runCli(['mcp', 'rm', 'broken'], db)).toMatchObject({ code: 0, stdout: 'removed broken\n' });
    const again = await runCli(['mcp', 'rm', 'broken'], db);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no MCP server registered as broken');
    expect((await runCli(['mcp', 'rm', 'nowhere'], db)).code).toBe(0);

    const healthy = await runCli(['mcp', 'health'], db);
    expect(healthy.code).toBe(0);
    expect(healthy.stdout).toMatch(/2 of 2 healthy\n$/);
  }, 180_000);
});
