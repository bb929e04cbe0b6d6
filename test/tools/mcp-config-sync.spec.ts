// mcp-agent-technical-spec.md §7, POST /api/mcp/add, "Side Effects: Updates mcp-config.json, emits
// mcpAdded event": over real HTTP with the real modules and Postgres, every registry change rewrites
// <LOUPE_HOME>/mcp-config.json, and an added server is journaled as mcp_added (a host event).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import type { JournalEntry } from '../../src/journal/journal-entry';
import { JournalService } from '../../src/journal/journal.service';
import { expectJson, startApiApp, type ApiApp } from '../support/api-app';

describe('mcp-config.json and mcp_added', () => {
  let a: ApiApp;
  const file = () => path.join(a.home, 'mcp-config.json');
  const read = () => JSON.parse(fs.readFileSync(file(), 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };

  beforeAll(async () => {
    a = await startApiApp();
  });
  afterAll(async () => {
    await a?.close();
  });

  it('is written at start, from the (empty) registry', () => {
    expect(read()).toEqual({ mcpServers: {} });
  });

  it('follows every add and remove, and an add is journaled as mcp_added', async () => {
    const journal = a.app.get(JournalService);
    const added = firstValueFrom(
      journal.entries$.pipe(filter((e: JournalEntry) => e.kind === 'event' && e.row.type === 'mcp_added' && e.row.sessionId === null)),
      { defaultValue: undefined },
    );
    await expectJson(
      await a.call('POST', '/api/mcp/add', {
        name: 'files',
        config: { transport: 'stdio', command: 'node', args: ['server.js'], env: { KEY: 'secret' } },
      }),
      201,
    );
    const event = (await added) as Extract<JournalEntry, { kind: 'event' }>;
    expect(event.row.payload).toEqual({ name: 'files', transport: 'stdio', endpoint: 'node server.js', configFile: file() });
    // the file holds the config itself (it is a usable config), so it is owner-only
    expect(read()).toEqual({ mcpServers: { files: { transport: 'stdio', command: 'node', args: ['server.js'], env: { KEY: 'secret' } } } });
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);

    await expectJson(
      await a.call('POST', '/api/mcp/add', { name: 'web', config: { transport: 'http', url: 'http://127.0.0.1:9/mcp' } }),
      201,
    );
    expect(Object.keys(read().mcpServers)).toEqual(['files', 'web']);

    // a refused add (taken name) changes nothing
    await expectJson(
      await a.call('POST', '/api/mcp/add', { name: 'web', config: { transport: 'http', url: 'http://127.0.0.1:8/mcp' } }),
      409,
    );
    expect(read().mcpServers.web).toEqual({ transport: 'http', url: 'http://127.0.0.1:9/mcp' });

    expect((await a.call('DELETE', '/api/mcp/files')).status).toBe(204);
    expect(Object.keys(read().mcpServers)).toEqual(['web']);
    expect(fs.readdirSync(a.home).filter((f) => f.startsWith('mcp-config'))).toEqual(['mcp-config.json']);
  });
});
