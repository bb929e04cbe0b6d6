// External MCP servers nobody here wrote — the official filesystem server over stdio, the official
// everything server over Streamable HTTP — connected, timed out, killed; and the session toolset
// that reports their deaths.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { connectExternalServer } from '../../src/tools/external-mcp';
import { freePort } from '../../src/common/free-port';
import { launchHttpServer, type LaunchedServer } from '../../src/tools/external-mcp-launch';
import type { McpToolSource } from '../../src/tools/mcp-tool-source';
import type { McpServerDeath } from '../../src/tools/tool-types';
import { ToolsService } from '../../src/tools/tools.service';
import { waitUntil } from '../support/wait';
import { survivors } from './sandbox-test-kit';

const ROOT = path.join(__dirname, '..', '..');
const FILESYSTEM = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

async function launchEverything(): Promise<LaunchedServer> {
  const port = await freePort();
  return launchHttpServer(
    { command: process.execPath, args: [EVERYTHING, 'streamableHttp'], env: { PORT: String(port) } },
    `http://127.0.0.1:${port}/mcp`,
  );
}

/**
 * An in-process Streamable HTTP server that records each request's method and headers. Stateless:
 * no sessions and no event stream (a GET is 405); stateful: sessions, ended by a DELETE.
 */
async function recordingServer(
  opts: { stateful?: boolean } = {},
): Promise<{ url: string; requests: Array<{ method: string; headers: http.IncomingHttpHeaders }>; stop(): Promise<void> }> {
  const requests: Array<{ method: string; headers: http.IncomingHttpHeaders }> = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method!, headers: req.headers });
    const known = sessions.get(String(req.headers['mcp-session-id']));
    if (known) return void known.handleRequest(req, res);
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const mcp = new McpServer({ name: 'recording', version: '1.0.0' });
    mcp.registerTool('pong', { description: 'answers pong', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'pong' }] }));
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport(
      opts.stateful
        ? { sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, transport) }
        : { sessionIdGenerator: undefined },
    );
    if (!opts.stateful) res.on('close', () => void mcp.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The deaths a toolset reports, and a promise of the first. */
function deathsOf(tools: { onServerDied(listener: (d: McpServerDeath) => void): () => void }) {
  const deaths: McpServerDeath[] = [];
  let first!: () => void;
  const reported = new Promise<void>((r) => (first = r));
  tools.onServerDied((d) => {
    deaths.push(d);
    first();
  });
  return { deaths, reported };
}

function connected(r: Awaited<ReturnType<typeof connectExternalServer>>): McpToolSource {
  if (!r.ok) throw new Error(`did not connect: ${r.failure.error} ${r.failure.stderr}`);
  return r.source;
}

describe('external MCP servers', () => {
  let tmp: string;
  const cleanup: Array<() => Promise<unknown> | unknown> = [];
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ext-mcp-'));
  });
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('connects the filesystem server over stdio, rooted in a directory, and calls its tools there', async () => {
    fs.writeFileSync(path.join(tmp, 'a.txt'), 'from the workspace');
    const source = connected(
      await connectExternalServer({ name: 'filesystem', command: process.execPath, args: [FILESYSTEM, tmp], cwd: tmp }),
    );
    cleanup.push(() => source.close());
    expect(source.transport).toBe('stdio');
    expect(source.definitions().map((d) => d.name)).toEqual(
      expect.arrayContaining(['read_text_file', 'write_file', 'list_allowed_directories']),
    );
    expect(await source.call('read_text_file', { path: path.join(tmp, 'a.txt') }, { timeoutMs: 5_000 })).toMatchObject({
      status: 'ok',
      text: 'from the workspace',
    });
    expect((await source.call('write_file', { path: path.join(tmp, 'b.txt'), content: 'written' }, { timeoutMs: 5_000 })).status).toBe(
      'ok',
    );
    expect(fs.readFileSync(path.join(tmp, 'b.txt'), 'utf8')).toBe('written');
    // outside its root the server refuses, and the refusal is a tool error, not a crash
    expect((await source.call('read_text_file', { path: '/etc/hostname' }, { timeoutMs: 5_000 })).status).toBe('error');
  });

  it('connects the everything server over Streamable HTTP and calls echo and get-sum', async () => {
    const server = await launchEverything();
    cleanup.push(() => server.stop());
    const source = connected(await connectExternalServer({ name: 'everything', transport: 'http', url: server.url }));
    cleanup.push(() => source.close());
    expect(source.transport).toBe('http');
    expect(await source.call('echo', { message: 'over http' }, { timeoutMs: 5_000 })).toMatchObject({
      status: 'ok',
      text: 'Echo: over http',
    });
    expect(await source.call('get-sum', { a: 2, b: 40 }, { timeoutMs: 5_000 })).toMatchObject({
      status: 'ok',
      text: 'The sum of 2 and 40 is 42.',
    });
  });

  it('sends the configured headers with every HTTP request, and ends its session when closed', async () => {
    const server = await recordingServer({ stateful: true });
    cleanup.push(() => server.stop());
    const source = connected(
      await connectExternalServer({
        name: 'recording',
        transport: 'http',
        url: server.url,
        headers: { Authorization: 'Bearer t0ken', 'X-Team': 'loupe' },
      }),
    );
    expect((await source.call('pong', {}, { timeoutMs: 5_000 })).text).toBe('pong');
    await source.close();
    expect(server.requests.length).toBeGreaterThanOrEqual(4);
    for (const r of server.requests) expect(r.headers).toMatchObject({ authorization: 'Bearer t0ken', 'x-team': 'loupe' });
    expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': expect.any(String) } });
  });

  it('gives up on a stdio server that never answers within the timeout, and kills its process', async () => {
    const pidFile = path.join(tmp, 'pid');
    // found by its command line: the pid it sees is its own PID namespace's (the tool wrapper's)
    const marker = `mute-${randomUUID()}`;
    const started = Date.now();
    const r = await connectExternalServer(
      {
        name: 'mute',
        command: process.execPath,
        args: [
          '-e',
          `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000) // ${marker}`,
        ],
      },
      // long enough for the server's Node to start and write its pid on a loaded machine (400 ms was
      // not, in one CI run): the process must have run for its removal to be shown
      { timeoutMs: 2_500 },
    );
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(r).toMatchObject({
      ok: false,
      failure: { name: 'mute', transport: 'stdio', error: expect.stringMatching(/timed out|within 2500 ms/) },
    });
    expect(fs.existsSync(pidFile)).toBe(true);
    // the server's process is gone: nothing announces that to this process but /proc
    await waitUntil(() => survivors(marker).length === 0, {
      what: `no process left with ${marker}`,
      context: () => survivors(marker).join('\n'),
    });
  });

  it('gives up on an HTTP endpoint that accepts connections but never answers', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    cleanup.push(
      () =>
        new Promise((r) => {
          sockets.forEach((s) => s.destroy());
          silent.close(r);
        }),
    );
    const started = Date.now();
    const r = await connectExternalServer(
      { name: 'silent', transport: 'http', url: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/mcp` },
      { timeoutMs: 400 },
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(r).toMatchObject({ ok: false, failure: { name: 'silent', transport: 'http', url: expect.stringContaining('/mcp') } });
  });

  it('reports a server that exits at start with how it ended and its stderr', async () => {
    const r = await connectExternalServer({
      name: 'broken',
      command: process.execPath,
      args: ['-e', "process.stderr.write('no config file'); process.exit(3)"],
    });
    expect(r).toMatchObject({
      ok: false,
      failure: {
        name: 'broken',
        transport: 'stdio',
        command: expect.stringContaining('-e'),
        error: expect.stringContaining('exited with code 3'),
        stderr: 'no config file',
      },
    });
    const refused = await connectExternalServer({ name: 'nowhere', transport: 'http', url: `http://127.0.0.1:${await freePort()}/mcp` });
    expect(refused).toMatchObject({ ok: false, failure: { error: expect.stringContaining('ECONNREFUSED') } });
  });
});

describe('a session toolset with external servers', () => {
  let workspaceDir: string;
  const cleanup: Array<() => Promise<unknown> | unknown> = [];
  beforeEach(() => {
    workspaceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ext-ws-'));
    fs.writeFileSync(path.join(workspaceDir, 'a.txt'), 'built-in');
  });
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
    fs.rmSync(workspaceDir, { recursive: true, force: true });
  });

  it("keeps the built-in tools and names the server's colliding tools <server>__<tool>", async () => {
    const tools = await new ToolsService().createSessionTools({
      workspaceDir,
      externalMcp: [{ name: 'filesystem', command: process.execPath, args: [FILESYSTEM, workspaceDir] }],
    });
    cleanup.push(() => tools.close());
    expect(tools.connections.connected).toEqual([
      expect.objectContaining({
        name: 'filesystem',
        transport: 'stdio',
        renamed: [
          { from: 'read_file', to: 'filesystem__read_file' },
          { from: 'write_file', to: 'filesystem__write_file' },
        ],
      }),
    ]);
    expect((await tools.execute('read_file', { path: 'a.txt' }, { timeoutMs: 5_000 })).server).toBe('workspace');
    const viaServer = await tools.execute('filesystem__read_file', { path: path.join(workspaceDir, 'a.txt') }, { timeoutMs: 5_000 });
    expect(viaServer).toMatchObject({ status: 'ok', text: 'built-in', server: 'filesystem' });
  });

  it('reports a stdio server that dies mid-session once, with how it ended; its tools then answer as errors', async () => {
    const tools = await new ToolsService().createSessionTools({
      workspaceDir,
      externalMcp: [{ name: 'filesystem', command: process.execPath, args: [FILESYSTEM, workspaceDir] }],
    });
    cleanup.push(() => tools.close());
    const { deaths, reported } = deathsOf(tools);
    process.kill(tools.serverPid('filesystem')!, 'SIGKILL');
    await reported;
    expect(deaths).toEqual([
      {
        name: 'filesystem',
        transport: 'stdio',
        error: 'the server process was killed by SIGKILL',
        stderr: expect.stringContaining('Secure MCP Filesystem Server'),
      },
    ]);
    const after = await tools.execute('list_allowed_directories', {}, { timeoutMs: 5_000 });
    expect(after).toMatchObject({ status: 'error', text: expect.stringContaining('MCP server filesystem is not running') });
    expect((await tools.execute('list_files', {}, { timeoutMs: 5_000 })).status).toBe('ok');
    expect(deaths).toHaveLength(1);
  });

  it('notices an HTTP server going away through its event stream (everything), before any call', async () => {
    const server = await launchEverything();
    cleanup.push(() => server.stop());
    const tools = await new ToolsService().createSessionTools({
      workspaceDir,
      externalMcp: [{ name: 'everything', transport: 'http', url: server.url }],
    });
    cleanup.push(() => tools.close());
    const { deaths, reported } = deathsOf(tools);
    server.kill('SIGKILL');
    await reported;
    expect(deaths).toEqual([
      expect.objectContaining({ name: 'everything', transport: 'http', error: expect.stringContaining('stopped answering') }),
    ]);
    expect(await tools.execute('echo', { message: 'x' }, { timeoutMs: 5_000 })).toMatchObject({
      status: 'error',
      text: expect.stringContaining('MCP server everything is not running'),
    });
    expect((await tools.execute('list_files', {}, { timeoutMs: 5_000 })).status).toBe('ok');
  });

  it("notices an HTTP server without an event stream going away at the next call, and reports it before that call's error", async () => {
    const server = await recordingServer();
    const tools = await new ToolsService().createSessionTools({
      workspaceDir,
      externalMcp: [{ name: 'recording', transport: 'http', url: server.url }],
    });
    cleanup.push(() => tools.close());
    const deaths: McpServerDeath[] = [];
    tools.onServerDied((d) => deaths.push(d));
    expect((await tools.execute('pong', {}, { timeoutMs: 5_000 })).status).toBe('ok');
    await server.stop();
    expect(deaths).toEqual([]);
    const failed = await tools.execute('pong', {}, { timeoutMs: 5_000 });
    expect(deaths).toEqual([
      expect.objectContaining({
        name: 'recording',
        transport: 'http',
        error: expect.stringContaining('the server stopped answering: fetch failed'),
      }),
    ]);
    expect(failed).toMatchObject({ status: 'error', text: expect.stringContaining('MCP server recording stopped') });
    expect((await tools.execute('pong', {}, { timeoutMs: 5_000 })).text).toContain('is not running');
  });

  it('goes on without a server that fails to connect, reporting it', async () => {
    const port = await freePort();
    const tools = await new ToolsService().createSessionTools({
      workspaceDir,
      externalMcp: [{ name: 'gone', transport: 'http', url: `http://127.0.0.1:${port}/mcp` }],
      mcpConnectTimeoutMs: 2_000,
    });
    cleanup.push(() => tools.close());
    expect(tools.connections).toEqual({
      connected: [],
      failed: [expect.objectContaining({ name: 'gone', transport: 'http', url: `http://127.0.0.1:${port}/mcp` })],
    });
    expect(tools.definitions().map((d) => d.name)).toEqual(['read_file', 'write_file', 'list_files']);
  });
});
