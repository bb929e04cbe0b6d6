// The zero-install defaults, through the built command: embedded Postgres under LOUPE_HOME
// (initialised once, reused, stopped on exit), `npm start`'s HTTP server with its token, and
// OTLP export when OTEL_EXPORTER_OTLP_ENDPOINT is set.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { Ollama } from 'ollama';
import { dataDirFor, runningPostmaster } from '../../src/database/embedded/embedded-postgres';
import { createTestDatabase } from '../support/test-app';
import { ROOT, runCli, waitForListening } from '../support/run-cli';

const NORMAL = path.join(ROOT, 'scenarios', 'direct-process', 'normal-tool-loop-completion.yaml');

describe('zero-install defaults (built CLI)', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-defaults-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('starts an embedded Postgres under LOUPE_HOME, reuses it on the next run and stops it on exit', async () => {
    const home = path.join(tmp, 'home');
    const env = { LOUPE_HOME: home, DATABASE_URL: undefined, OLLAMA_HOST: undefined, LOUPE_LOG_LEVEL: 'log' };
    const first = await runCli(['eval', NORMAL], env, { timeoutMs: 120_000 });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/initialising embedded Postgres/);
    // a private temp dir is not reachable by the postgres user when we run as root: /var/tmp fallback
    const dataDir = dataDirFor(home, () => {});
    expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(runningPostmaster(dataDir)).toBeUndefined();

    const second = await runCli(['eval', NORMAL, '--json'], env, { timeoutMs: 120_000 });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toMatch(/initialising/);
    const sessions = await runCli(['sessions', 'list', '--json'], env);
    // two runs of a scenario written for two profiles (corvid, loupe)
    expect(JSON.parse(sessions.stdout)).toHaveLength(4);
    expect(runningPostmaster(dataDir)).toBeUndefined();
    if (dataDir !== path.join(home, 'pg')) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }, 180_000);

  it('npm start serves /health openly and the admin API only with the bearer token', async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    Object.assign(env, {
      DATABASE_URL: await createTestDatabase(),
      LOUPE_HOME: path.join(tmp, 'srv'),
      LOUPE_PORT: '0',
      LOUPE_ADMIN_TOKEN: 'secret-token',
    });
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], { env });
    try {
      const url = await waitForListening(child);
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: 'up' });
      expect((await fetch(`${url}/api/sessions`)).status).toBe(401);
      expect((await fetch(`${url}/api/sessions`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const ok = await fetch(`${url}/api/sessions`, { headers: { authorization: 'Bearer secret-token' } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ items: [], total: 0, limit: 50, offset: 0 });
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('exports spans over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set', async () => {
    const bodies: string[] = [];
    const collector = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        if (req.url === '/v1/traces') bodies.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const port = (collector.address() as { port: number }).port;
    try {
      const run = await runCli(['eval', NORMAL], {
        DATABASE_URL: await createTestDatabase(),
        LOUPE_HOME: path.join(tmp, 'otlp'),
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      });
      expect(run.code).toBe(0);
      const all = bodies.join('\n');
      expect(all).toContain('invoke_agent loupe');
      expect(all).toContain('execute_tool read_file');
      expect(all).toContain('gen_ai.operation.name');
    } finally {
      collector.close();
    }
  });

  it("loupe standin --scenario FILE --port N serves the scenario script over Ollama's protocol", async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'loupe.js'), 'standin', '--scenario', NORMAL, '--port', '0']);
    try {
      const url = await waitForListening(child);
      const client = new Ollama({ host: url });
      // llama3.1's calls are parsed by its template: only a request that carries tools gets them natively
      const tools = [
        { type: 'function', function: { name: 'list_files', description: 'List files', parameters: { type: 'object', properties: {} } } },
      ];
      const reply = await client.chat({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'go' }], tools, stream: false });
      expect(reply.message.tool_calls?.[0].function).toEqual({ index: 0, name: 'list_files', arguments: {} });
      expect((await client.list()).models.map((m) => m.name)).toContain('llama3.1:8b');
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });
});

describe('a killed Loupe process', () => {
  it('leaves an embedded Postgres behind that the next run uses and, as the last user, stops', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-killed-'));
    const home = path.join(tmp, 'home');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'DATABASE_URL' && k !== 'OLLAMA_HOST') env[k] = v;
    Object.assign(env, { LOUPE_HOME: home, LOUPE_PORT: '0', LOUPE_ADMIN_TOKEN: 't' });
    const server = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], { env });
    try {
      await waitForListening(server);
      const dataDir = dataDirFor(home, () => {});
      const before = runningPostmaster(dataDir);
      expect(before).toBeDefined();
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGKILL');
      await exited;
      expect(runningPostmaster(dataDir)?.pid).toBe(before!.pid);

      const list = await runCli(['sessions', 'list', '--json'], { LOUPE_HOME: home, DATABASE_URL: undefined, LOUPE_LOG_LEVEL: 'log' });
      expect(list.code).toBe(0);
      expect(list.stderr).toMatch(/using the embedded Postgres already running/);
      expect(runningPostmaster(dataDir)).toBeUndefined();
      if (dataDir !== path.join(home, 'pg')) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});
