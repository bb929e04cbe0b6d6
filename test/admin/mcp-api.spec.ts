// The admin API for external MCP servers (mcp-agent-technical-spec.md §7), over real HTTP with the
// real modules and Postgres: POST /api/mcp/add answers 201, 400 with field errors, 409 for a taken
// name, 500 when the server itself fails; health probes every server; all behind the bearer token.
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { loadConfig } from '../../src/config/loupe-config';
import type { FieldError } from '../../src/tools/external-mcp-config';
import { freePort } from '../../src/common/free-port';
import { launchHttpServer, type LaunchedServer } from '../../src/tools/external-mcp-launch';
import type { McpHealthReport, McpServerView } from '../../src/tools/mcp-servers.service';
import { createTestDatabase } from '../support/test-app';

const ROOT = path.join(__dirname, '..', '..');
const SLOW_TOOLS = path.join(ROOT, 'scenarios', 'fixtures', 'slow-tools-mcp-server.js');
const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const TOKEN = 'mcp-api-test-token';

const json = <T>(res: Response): Promise<T> => res.json() as Promise<T>;

describe('admin API: /api/mcp', () => {
  let app: INestApplication;
  let base: string;
  let home: string;
  let everything: LaunchedServer;

  const call = (method: string, route: string, body?: unknown, token: string | null = TOKEN) =>
    fetch(`${base}${route}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-mcp-api-'));
    const config = loadConfig({ LOUPE_HOME: home, DATABASE_URL: await createTestDatabase(), LOUPE_ADMIN_TOKEN: TOKEN, LOUPE_PORT: '0' });
    app = await NestFactory.create(AppModule.forRoot(config, { http: true }), { logger: false });
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const port = await freePort();
    everything = await launchHttpServer(
      { command: process.execPath, args: [EVERYTHING, 'streamableHttp'], env: { PORT: String(port) } },
      `http://127.0.0.1:${port}/mcp`,
    );
  });
  afterAll(async () => {
    await everything?.stop();
    await app?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it.each([
    ['GET', '/api/mcp'],
    ['GET', '/api/mcp/health'],
    ['POST', '/api/mcp/add'],
    ['DELETE', '/api/mcp/anything'],
  ])('refuses %s %s without the bearer token (401) or with a wrong one', async (method, route) => {
    const body = method === 'POST' ? { name: 'x', config: { transport: 'stdio', command: 'x' } } : undefined;
    expect((await call(method, route, body, null)).status).toBe(401);
    expect((await call(method, route, body, 'wrong')).status).toBe(401);
  });

  it('answers 400 with every problem by field', async () => {
    const res = await call('POST', '/api/mcp/add', {
      name: 'Bad Name',
      config: { transport: 'http', url: 'ftp://x', headers: { 'Bad Header': 'v' } },
    });
    expect(res.status).toBe(400);
    // the API's one error shape: status, its name, message, field errors, correlation id
    expect(await res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      correlationId: expect.any(String),
      message: 'invalid MCP server',
      errors: [
        { field: 'name', message: expect.stringContaining('lowercase') },
        { field: 'config.url', message: 'must be an http:// or https:// URL (got ftp:)' },
        { field: 'config.headers.Bad Header', message: 'not a valid HTTP header name' },
      ],
    });
    const noTransport = await call('POST', '/api/mcp/add', { name: 'ok', config: { command: 'node' } });
    expect(noTransport.status).toBe(400);
    expect((await json<{ errors: FieldError[] }>(noTransport)).errors).toEqual([
      { field: 'config.transport', message: 'required: one of stdio, http' },
    ]);
    const stdioWithoutCommand = await call('POST', '/api/mcp/add', { name: 'ok', config: { transport: 'stdio' } });
    expect((await json<{ errors: FieldError[] }>(stdioWithoutCommand)).errors).toEqual([
      { field: 'config.command', message: expect.stringContaining('required') },
    ]);
    expect((await call('GET', '/api/mcp')).status).toBe(200);
    expect(await (await call('GET', '/api/mcp')).json()).toEqual([]);
  });

  it('adds servers (201), refuses a taken name (409), lists, probes with totals and deletes', async () => {
    const stdio = await call('POST', '/api/mcp/add', {
      name: 'slow-tools',
      config: { transport: 'stdio', command: process.execPath, args: [SLOW_TOOLS], env: { API_KEY: 'hidden' } },
    });
    expect(stdio.status).toBe(201);
    expect(await stdio.json()).toMatchObject({
      name: 'slow-tools',
      transport: 'stdio',
      status: 'not_checked',
      config: { env: { API_KEY: '***' } },
    });
    const httpAdd = await call('POST', '/api/mcp/add', {
      name: 'everything',
      config: { transport: 'http', url: everything.url, headers: { Authorization: 'Bearer x' } },
    });
    expect(httpAdd.status).toBe(201);
    expect(await httpAdd.json()).toMatchObject({
      name: 'everything',
      transport: 'http',
      endpoint: everything.url,
      config: { headers: { Authorization: '***' } },
    });
    const broken = await call('POST', '/api/mcp/add', {
      name: 'broken',
      config: { transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit(5)'] },
    });
    expect(broken.status).toBe(201);

    const taken = await call('POST', '/api/mcp/add', { name: 'everything', config: { transport: 'stdio', command: 'node' } });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({
      statusCode: 409,
      name: 'everything',
      message: expect.stringContaining('already registered'),
    });

    const list = await json<McpServerView[]>(await call('GET', '/api/mcp'));
    expect(list.map((s) => [s.name, s.status])).toEqual([
      ['broken', 'not_checked'],
      ['everything', 'not_checked'],
      ['slow-tools', 'not_checked'],
    ]);

    const health = await call('GET', '/api/mcp/health');
    expect(health.status).toBe(200);
    const report = await json<McpHealthReport>(health);
    expect(report).toMatchObject({ total: 3, healthy: 2, failed: 1 });
    const byName = Object.fromEntries(report.servers.map((s) => [s.name, s]));
    expect(byName.everything).toMatchObject({
      status: 'connected',
      toolCount: expect.any(Number),
      latencyMs: expect.any(Number),
      lastError: null,
      checkedAt: expect.any(String),
    });
    expect(byName.everything.toolCount).toBeGreaterThan(5);
    expect(byName['slow-tools']).toMatchObject({ status: 'connected', toolCount: 3 });
    expect(byName.broken).toMatchObject({ status: 'failed', toolCount: null, lastError: expect.stringContaining('exited with code 5') });
    // the probe's results are stored: the list shows them without probing again
    const listed = await json<McpServerView[]>(await call('GET', '/api/mcp'));
    expect(listed.find((s) => s.name === 'broken')).toMatchObject({ status: 'failed', checkedAt: byName.broken.checkedAt });

    expect((await call('DELETE', '/api/mcp/broken')).status).toBe(204);
    expect((await call('DELETE', '/api/mcp/broken')).status).toBe(404);
    expect(await (await call('GET', '/api/mcp/health')).json()).toMatchObject({ total: 2, healthy: 2, failed: 0 });
  });

  it('answers 500 when the registry itself fails', async () => {
    await app.get(DataSource).query('ALTER TABLE mcp_servers RENAME TO mcp_servers_gone');
    try {
      const res = await call('POST', '/api/mcp/add', { name: 'after-failure', config: { transport: 'stdio', command: 'node' } });
      expect(res.status).toBe(500);
      expect((await call('GET', '/api/mcp')).status).toBe(500);
    } finally {
      await app.get(DataSource).query('ALTER TABLE mcp_servers_gone RENAME TO mcp_servers');
    }
  });
});
