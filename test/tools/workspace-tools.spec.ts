import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolsService } from '../../src/tools/tools.service';
import type { ToolRegistry } from '../../src/tools/tool-registry';
import { createWorkspace } from '../../src/tools/workspace/workspace-manager';

// sizes around 64 KB: reads and writes of any size go the same way (by the thread pool, in chunks)
const SIZE_STEP = 64 * 1024;

describe('workspace tools over MCP (official SDK server and client)', () => {
  let home: string;
  let dir: string;
  let tools: ToolRegistry;
  const opts = { timeoutMs: 5_000 };

  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-tools-'));
    dir = await createWorkspace(home, 'session-1', { 'notes.txt': 'hello\nworld\n', 'src/a.ts': 'export const a = 1;\n' });
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
    expect(await tools.execute('read_file', { path: 'notes.txt' }, opts)).toEqual(
      expect.objectContaining({ status: 'ok', text: 'hello\nworld\n', server: 'workspace' }),
    );
    const w = await tools.execute('write_file', { path: 'out/new.txt', content: 'written' }, opts);
    expect(w).toEqual(expect.objectContaining({ status: 'ok', text: 'Wrote 7 bytes to out/new.txt' }));
    expect(fs.readFileSync(path.join(dir, 'out', 'new.txt'), 'utf8')).toBe('written');
    expect((await tools.execute('list_files', {}, opts)).text).toBe('notes.txt\nout/\nsrc/');
    expect((await tools.execute('list_files', { path: 'src' }, opts)).text).toBe('a.ts');
  });

  it('answers errors as tool errors the model can read', async () => {
    expect(await tools.execute('read_file', { path: 'missing.txt' }, opts)).toEqual(
      expect.objectContaining({ status: 'error', text: 'File not found: missing.txt' }),
    );
    expect(await tools.execute('read_file', { path: 'src' }, opts)).toEqual(
      expect.objectContaining({ status: 'error', text: 'Is a directory: src' }),
    );
    expect(await tools.execute('nope', {}, opts)).toEqual({ status: 'unknown_tool', text: 'Unknown tool: nope', durationMs: 0 });
    // a write below a file: its parent cannot be made, and nothing is written
    const below = await tools.execute('write_file', { path: 'notes.txt/inner.txt', content: 'x' }, opts);
    expect(below.status).toBe('error');
    expect(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('hello\nworld\n');
  });

  it('writes into an existing directory and into new nested ones', async () => {
    expect((await tools.execute('write_file', { path: 'src/b.ts', content: 'b' }, opts)).status).toBe('ok');
    expect((await tools.execute('write_file', { path: 'deep/er/c.ts', content: 'c' }, opts)).status).toBe('ok');
    expect(fs.readFileSync(path.join(dir, 'src', 'b.ts'), 'utf8')).toBe('b');
    expect(fs.readFileSync(path.join(dir, 'deep', 'er', 'c.ts'), 'utf8')).toBe('c');
  });

  it('reads, writes and lists small and large files and directories the same way', async () => {
    const line = 'const value = computeSomething(input); // ünïcode\n';
    for (const [name, bytes] of [
      ['small.txt', 100],
      ['at-limit.txt', SIZE_STEP],
      ['large.txt', SIZE_STEP * 3],
    ] as const) {
      const content = line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
      const w = await tools.execute('write_file', { path: `sizes/${name}`, content }, opts);
      expect(w).toEqual(expect.objectContaining({ status: 'ok', text: `Wrote ${Buffer.byteLength(content)} bytes to sizes/${name}` }));
      expect(fs.readFileSync(path.join(dir, 'sizes', name), 'utf8')).toBe(content);
      expect((await tools.execute('read_file', { path: `sizes/${name}` }, opts)).text).toBe(content);
      // overwriting with less truncates the file
      expect((await tools.execute('write_file', { path: `sizes/${name}`, content: 'short' }, opts)).status).toBe('ok');
      expect(fs.readFileSync(path.join(dir, 'sizes', name), 'utf8')).toBe('short');
    }
    // a directory of thousands of entries (its own size over 64 KB, on ext4, btrfs or tmpfs) lists the same way
    const many = path.join(dir, 'many');
    fs.mkdirSync(many);
    const names = Array.from({ length: 4_000 }, (_, i) => `entry-with-a-longish-name-${String(i).padStart(4, '0')}.txt`);
    for (const n of names) fs.writeFileSync(path.join(many, n), '');
    expect(fs.statSync(many).size).toBeGreaterThan(SIZE_STEP);
    const listed = (await tools.execute('list_files', { path: 'many' }, opts)).text.split('\n');
    expect(listed).toHaveLength(1_001);
    expect(listed.slice(0, 1_000)).toEqual(names.slice(0, 1_000));
    expect(listed[1_000]).toBe('[... 3000 more entries]');
    expect((await tools.execute('list_files', { path: 'sizes' }, opts)).text).toBe('at-limit.txt\nlarge.txt\nsmall.txt');
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

  it('does not write through a dangling symlink a command left pointing out of the workspace', async () => {
    const target = path.join(home, 'planted.txt');
    fs.symlinkSync(target, path.join(dir, 'trap.txt'));
    fs.symlinkSync(path.join(home, 'newdir'), path.join(dir, 'trapdir'));
    for (const p of ['trap.txt', 'trapdir/x.txt']) {
      const w = await tools.execute('write_file', { path: p, content: 'escaped' }, opts);
      expect(w).toEqual(expect.objectContaining({ status: 'error', text: `Path "${p}" is outside the workspace` }));
    }
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(path.join(home, 'newdir'))).toBe(false);
  });

  it('never shows a host path in an error the model reads', async () => {
    const long = `${'a'.repeat(300)}/${'b'.repeat(5000)}.txt`;
    for (const tool of ['read_file', 'write_file', 'list_files']) {
      const r = await tools.execute(tool, { path: long, content: 'x' }, opts);
      expect(r.status).toBe('error');
      expect(r.text).toMatch(/^File name too long: a{200}…$/);
      expect(r.text).not.toContain(home);
      expect(r.text).not.toContain(os.tmpdir());
    }
  });

  it('reads a binary file as a description, and flags text that is not valid UTF-8', async () => {
    fs.writeFileSync(path.join(dir, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
    const bin = await tools.execute('read_file', { path: 'image.png' }, opts);
    expect(bin.text).toMatch(
      /^\[image\.png is a binary file \(12 bytes, sha256 [0-9a-f]{16}…\); its content is not shown as text\. First bytes: 89 50 4e 47/,
    );
    fs.writeFileSync(path.join(dir, 'latin1.txt'), Buffer.from('caf\xe9 au lait', 'latin1'));
    const latin = await tools.execute('read_file', { path: 'latin1.txt' }, opts);
    expect(latin.text).toBe('[latin1.txt is not valid UTF-8: 1 undecodable byte sequence(s) are shown as \uFFFD]\ncaf\uFFFD au lait');
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
