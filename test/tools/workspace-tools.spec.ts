import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolsService } from '../../src/tools/tools.service';
import type { ToolRegistry } from '../../src/tools/tool-registry';
import { createWorkspace } from '../../src/tools/workspace/workspace-manager';

describe('workspace tools over MCP (official SDK server and client)', () => {
  let home: string;
  let dir: string;
  let tools: ToolRegistry;
  const opts = { timeoutMs: 5_000 };

  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-tools-'));
    dir = createWorkspace(home, 'session-1', { 'notes.txt': 'hello\nworld\n', 'src/a.ts': 'export const a = 1;\n' });
    fs.writeFileSync(path.join(home, 'secret.txt'), 'outside');
    tools = await new ToolsService().createSessionTools({ workspaceDir: dir });
  });
  afterAll(async () => {
    await tools.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('lists the three tools with JSON schemas', () => {
    const defs = tools.definitions();
    expect(defs.map((d) => d.name).sort()).toEqual(['list_files', 'read_file', 'write_file']);
    const write = defs.find((d) => d.name === 'write_file')!;
    expect(write.parameters).toEqual(expect.objectContaining({ type: 'object', required: ['path', 'content'] }));
  });

  it('reads, writes and lists inside the workspace', async () => {
    expect(await tools.execute('read_file', { path: 'notes.txt' }, opts)).toEqual(expect.objectContaining({ status: 'ok', text: 'hello\nworld\n', server: 'workspace' }));
    const w = await tools.execute('write_file', { path: 'out/new.txt', content: 'written' }, opts);
    expect(w).toEqual(expect.objectContaining({ status: 'ok', text: 'Wrote 7 bytes to out/new.txt' }));
    expect(fs.readFileSync(path.join(dir, 'out', 'new.txt'), 'utf8')).toBe('written');
    expect((await tools.execute('list_files', {}, opts)).text).toBe('notes.txt\nout/\nsrc/');
    expect((await tools.execute('list_files', { path: 'src' }, opts)).text).toBe('a.ts');
  });

  it('answers errors as tool errors the model can read', async () => {
    expect(await tools.execute('read_file', { path: 'missing.txt' }, opts)).toEqual(expect.objectContaining({ status: 'error', text: 'File not found: missing.txt' }));
    expect(await tools.execute('read_file', { path: 'src' }, opts)).toEqual(expect.objectContaining({ status: 'error', text: 'Is a directory: src' }));
    expect(await tools.execute('nope', {}, opts)).toEqual({ status: 'unknown_tool', text: 'Unknown tool: nope', durationMs: 0 });
  });

  it('cannot leave the workspace', async () => {
    for (const p of ['../secret.txt', '../../etc/passwd', 'src/../../secret.txt']) {
      const r = await tools.execute('read_file', { path: p }, opts);
      expect(r.status).toBe('error');
      expect(r.text).toBe(`Path "${p}" is outside the workspace`);
    }
    const w = await tools.execute('write_file', { path: '../escaped.txt', content: 'x' }, opts);
    expect(w.status).toBe('error');
    expect(fs.existsSync(path.join(home, 'escaped.txt'))).toBe(false);
    fs.symlinkSync(home, path.join(dir, 'link'));
    expect((await tools.execute('read_file', { path: 'link/secret.txt' }, opts)).status).toBe('error');
  });

  it('rejects arguments that do not match the schema', async () => {
    const r = await tools.execute('read_file', { file: 'notes.txt' }, opts);
    expect(r.status).toBe('error');
    expect(r.text).toMatch(/path/);
  });

  it('reports an aborted call as aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    expect((await tools.execute('read_file', { path: 'notes.txt' }, { ...opts, signal: ac.signal })).status).toBe('aborted');
  });
});
