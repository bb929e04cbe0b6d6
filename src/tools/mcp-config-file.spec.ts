import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mcpConfigPath, renderMcpConfig, writeMcpConfig } from './mcp-config-file';

describe('renderMcpConfig', () => {
  it('writes the servers under mcpServers by name, sorted, with their full configs', () => {
    const text = renderMcpConfig([
      { name: 'web', config: { transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: { authorization: 'Bearer t' } }, enabled: true },
      { name: 'files', config: { command: 'node', args: ['server.js'], env: { KEY: 'v' } }, enabled: true },
    ]);
    expect(JSON.parse(text)).toEqual({
      mcpServers: {
        files: { command: 'node', args: ['server.js'], env: { KEY: 'v' } },
        web: { transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: { authorization: 'Bearer t' } },
      },
    });
    expect(Object.keys(JSON.parse(text).mcpServers)).toEqual(['files', 'web']);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('marks a disabled server, and writes an empty registry as no servers', () => {
    expect(JSON.parse(renderMcpConfig([{ name: 'a', config: { command: 'x' }, enabled: false }]))).toEqual({
      mcpServers: { a: { command: 'x', disabled: true } },
    });
    expect(JSON.parse(renderMcpConfig([]))).toEqual({ mcpServers: {} });
  });
});

describe('writeMcpConfig', () => {
  let home: string;
  beforeEach(() => (home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-mcp-file-'))));
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('replaces the file whole, owner-only, leaving no staging file behind', () => {
    const file = mcpConfigPath(home);
    writeMcpConfig(file, '{"mcpServers":{"a":{}}}\n');
    writeMcpConfig(file, '{"mcpServers":{}}\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"mcpServers":{}}\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(home)).toEqual(['mcp-config.json']);
  });
});
