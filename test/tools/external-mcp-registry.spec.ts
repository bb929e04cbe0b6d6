// The registry of external MCP servers in Postgres: configs stored as given, health probed and
// stored in the last_* columns, and sessions that name a registered server get it.
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { ScenarioRunner } from '../../src/eval/scenario-runner.service';
import { parseScenario } from '../../src/eval/scenario/scenario-parser';
import { McpServerExistsError, McpServerInvalidError, McpServerNotFoundError } from '../../src/tools/external-mcp-errors';
import { McpServersService } from '../../src/tools/mcp-servers.service';
import { createTestApp, type TestApp } from '../support/test-app';

const ROOT = path.join(__dirname, '..', '..');
const SLOW_TOOLS = path.join(ROOT, 'scenarios', 'fixtures', 'slow-tools-mcp-server.js');

describe('registered external MCP servers (Postgres)', () => {
  let t: TestApp;
  let servers: McpServersService;
  beforeAll(async () => {
    t = await createTestApp();
    servers = t.app.get(McpServersService);
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores a server, refuses a taken name and invalid input, and removes it', async () => {
    const added = await servers.add({
      name: 'tools-a',
      config: { transport: 'stdio', command: process.execPath, args: [SLOW_TOOLS], env: { TOKEN: 'secret' } },
    });
    expect(added).toMatchObject({ name: 'tools-a', transport: 'stdio', status: 'not_checked', config: { env: { TOKEN: '***' } } });
    await expect(servers.add({ name: 'tools-a', config: { transport: 'http', url: 'http://127.0.0.1:1/mcp' } })).rejects.toBeInstanceOf(
      McpServerExistsError,
    );
    await expect(servers.add({ name: 'Tools', config: {} })).rejects.toBeInstanceOf(McpServerInvalidError);
    // the session gets the stored config, secrets included
    expect(await servers.configsFor(['tools-a'])).toEqual([
      { name: 'tools-a', transport: 'stdio', command: process.execPath, args: [SLOW_TOOLS], env: { TOKEN: 'secret' } },
    ]);
    await expect(servers.configsFor(['tools-a', 'missing'])).rejects.toThrow(new McpServerNotFoundError(['missing']));
    await servers.remove('tools-a');
    expect(await servers.list()).toEqual([]);
    await expect(servers.remove('tools-a')).rejects.toBeInstanceOf(McpServerNotFoundError);
  });

  it('probes every server and stores status, latency, tool count, last error and when', async () => {
    await servers.add({ name: 'healthy', config: { transport: 'stdio', command: process.execPath, args: [SLOW_TOOLS] } });
    await servers.add({
      name: 'broken',
      config: { transport: 'stdio', command: process.execPath, args: ['-e', "process.stderr.write('bad key'); process.exit(2)"] },
    });
    const report = await servers.health(5_000);
    expect(report).toMatchObject({ total: 2, healthy: 1, failed: 1 });
    const byName = Object.fromEntries(report.servers.map((s) => [s.name, s]));
    expect(byName.healthy).toMatchObject({
      status: 'connected',
      toolCount: 3,
      lastError: null,
      latencyMs: expect.any(Number),
      checkedAt: expect.any(String),
    });
    expect(byName.broken).toMatchObject({
      status: 'failed',
      toolCount: null,
      lastError: expect.stringMatching(/exited with code 2.*bad key/),
    });
    const rows = await t.app
      .get(DataSource)
      .query('SELECT name, last_status, last_error, last_latency_ms, last_tool_count, last_checked_at FROM mcp_servers ORDER BY name');
    expect(rows).toEqual([
      {
        name: 'broken',
        last_status: 'failed',
        last_error: expect.stringContaining('bad key'),
        last_latency_ms: expect.any(Number),
        last_tool_count: null,
        last_checked_at: expect.any(Date),
      },
      {
        name: 'healthy',
        last_status: 'connected',
        last_error: null,
        last_latency_ms: byName.healthy.latencyMs,
        last_tool_count: 3,
        last_checked_at: expect.any(Date),
      },
    ]);
    expect((await servers.list()).map((s) => [s.name, s.status])).toEqual([
      ['broken', 'failed'],
      ['healthy', 'connected'],
    ]);
    await servers.remove('healthy');
    await servers.remove('broken');
  });

  it('gives a session the server a scenario names without defining it', async () => {
    await servers.add({ name: 'registered-tools', config: { transport: 'stdio', command: process.execPath, args: [SLOW_TOOLS] } });
    const parsed = parseScenario(
      [
        'id: t/registered',
        'title: t',
        'spec: test',
        'prompt: echo',
        'mcp_servers:',
        '  - name: registered-tools',
        'script:',
        '  - tool_calls: [{ name: echo, arguments: { text: hi } }]',
        '  - content: done',
        'expect:',
        '  - event: mcp_server_connected',
        '    with: { name: registered-tools, transport: stdio }',
        '  - event: tool_result',
        '    with: { name: echo, status: ok }',
        '',
      ].join('\n'),
      'registered.yaml',
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const report = await t.app.get(ScenarioRunner).run([parsed.scenario]);
    expect(report.trials[0]).toMatchObject({ status: 'passed', failedExpectations: [] });

    await servers.remove('registered-tools');
    const missing = await t.app.get(ScenarioRunner).run([parsed.scenario]);
    expect(missing.trials[0]).toMatchObject({ status: 'error', error: 'no MCP server registered as registered-tools' });
  });
});
