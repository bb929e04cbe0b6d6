import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SYNC_IO_MAX_BYTES, readDirectory, readFileHead, writeTextNoFollow } from './workspace-file-io';
import { createWorkspace } from './workspace-manager';

describe('workspace file I/O', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-file-io-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  // both paths: a write of at most SYNC_IO_MAX_BYTES is synchronous, a larger one goes through the thread pool
  for (const bytes of [5, SYNC_IO_MAX_BYTES + 1]) {
    it(`never writes through a link at the final component (${bytes} bytes)`, async () => {
      const target = path.join(dir, 'target.txt');
      fs.writeFileSync(target, 'original');
      fs.symlinkSync(target, path.join(dir, 'link.txt'));
      await expect(writeTextNoFollow(path.join(dir, 'link.txt'), 'x'.repeat(bytes))).rejects.toMatchObject({ code: 'ELOOP' });
      expect(fs.readFileSync(target, 'utf8')).toBe('original');
    });

    it(`writes UTF-8 and says how many bytes (${bytes} bytes of text)`, async () => {
      const text = 'é'.repeat(Math.ceil(bytes / 2));
      const file = path.join(dir, 'out.txt');
      expect(await writeTextNoFollow(file, text)).toBe(Buffer.byteLength(text));
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
      expect((await readFileHead(file, 4)).toString('utf8')).toBe('éé');
    });
  }

  it('reads no more than the file holds, and fails on a missing file with its code', async () => {
    const file = path.join(dir, 'f.txt');
    fs.writeFileSync(file, 'abc');
    expect((await readFileHead(file, 10)).toString()).toBe('abc');
    const big = path.join(dir, 'big.txt');
    fs.writeFileSync(big, Buffer.alloc(SYNC_IO_MAX_BYTES * 2, 'z'));
    expect((await readFileHead(big, SYNC_IO_MAX_BYTES * 2 + 7)).length).toBe(SYNC_IO_MAX_BYTES * 2);
    await expect(readFileHead(path.join(dir, 'none.txt'), 3)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('lists a directory, and refuses a file or a missing path with their codes', async () => {
    fs.writeFileSync(path.join(dir, 'a.txt'), '');
    fs.mkdirSync(path.join(dir, 'sub'));
    const entries = await readDirectory(dir);
    expect(entries.map((e) => [e.name, e.isDirectory()]).sort()).toEqual([
      ['a.txt', false],
      ['sub', true],
    ]);
    await expect(readDirectory(path.join(dir, 'a.txt'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(readDirectory(path.join(dir, 'none'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('seeds a workspace with small and large files, in nested directories, and refuses a path out of it', async () => {
    const large = 'ü'.repeat(SYNC_IO_MAX_BYTES); // over the limit once encoded
    const ws = await createWorkspace(dir, 'session-1', { 'a.txt': 'small', 'deep/er/b.txt': large });
    expect(ws).toBe(path.join(dir, 'workspaces', 'session-1'));
    expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('small');
    expect(fs.readFileSync(path.join(ws, 'deep', 'er', 'b.txt'), 'utf8')).toBe(large);
    await expect(createWorkspace(dir, 'session-2', { '../escape.txt': 'x' })).rejects.toThrow(/outside the workspace/);
    expect(fs.existsSync(path.join(dir, 'workspaces', 'escape.txt'))).toBe(false);
  });

  it('never writes a seed file through a link out of the workspace, on either side of the limit', async () => {
    const outside = path.join(dir, 'outside.txt');
    fs.writeFileSync(outside, 'kept');
    const ws = path.join(dir, 'workspaces', 'session-3');
    fs.mkdirSync(ws, { recursive: true });
    fs.symlinkSync(outside, path.join(ws, 'out.txt'));
    await expect(createWorkspace(dir, 'session-3', { 'out.txt': 'x' })).rejects.toThrow(/outside the workspace/);
    await expect(createWorkspace(dir, 'session-3', { 'out.txt': 'x'.repeat(SYNC_IO_MAX_BYTES + 1) })).rejects.toThrow(
      /outside the workspace/,
    );
    expect(fs.readFileSync(outside, 'utf8')).toBe('kept');
  });
});
