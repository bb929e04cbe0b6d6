import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { listWorkspaceDir, readWorkspaceHead, writeWorkspaceText } from './workspace-file-io';
import { createWorkspace, readWorkspaceFile } from './workspace-manager';
import { WorkspaceRefusal } from './workspace-refusal';

describe('workspace file I/O', () => {
  let home: string;
  let ws: string;
  beforeEach(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-file-io-'));
    ws = await createWorkspace(home, 'session-1', { 'a.txt': 'small' });
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('writes UTF-8, says how many bytes, and reads and lists it back', async () => {
    const text = 'é'.repeat(100_000);
    expect(await writeWorkspaceText(ws, 'deep/er/out.txt', text)).toEqual({ written: 200_000, rel: 'deep/er/out.txt' });
    expect(fs.readFileSync(path.join(ws, 'deep', 'er', 'out.txt'), 'utf8')).toBe(text);
    const head = await readWorkspaceHead(ws, 'deep/er/out.txt', 4);
    expect([head.bytes.toString('utf8'), head.size]).toEqual(['éé', 200_000]);
    // overwriting with less truncates
    await writeWorkspaceText(ws, 'deep/er/out.txt', 'short');
    expect(await readWorkspaceFile(ws, 'deep/er/out.txt')).toBe('short');
    expect((await listWorkspaceDir(ws, '.')).map((e) => [e.name, e.isDirectory()]).sort()).toEqual([
      ['a.txt', false],
      ['deep', true],
    ]);
  });

  it('fails with the usual codes on a missing path, a directory and a file used as a directory', async () => {
    await expect(readWorkspaceHead(ws, 'none.txt', 3)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readWorkspaceHead(ws, '.', 3)).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(writeWorkspaceText(ws, 'a.txt/inner', 'x')).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(listWorkspaceDir(ws, 'a.txt')).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(listWorkspaceDir(ws, 'none')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readWorkspaceFile(ws, 'none.txt')).toBeUndefined();
  });

  it('never writes through a link at the last component, dangling or not', async () => {
    const target = path.join(home, 'target.txt');
    fs.writeFileSync(target, 'original');
    fs.symlinkSync(target, path.join(ws, 'link.txt'));
    fs.symlinkSync(path.join(home, 'planted.txt'), path.join(ws, 'dangling.txt'));
    await expect(writeWorkspaceText(ws, 'link.txt', 'x')).rejects.toThrow(/outside the workspace/);
    await expect(writeWorkspaceText(ws, 'dangling.txt', 'x')).rejects.toThrow(/outside the workspace/);
    expect(fs.readFileSync(target, 'utf8')).toBe('original');
    expect(fs.existsSync(path.join(home, 'planted.txt'))).toBe(false);
  });

  it('refuses a hard-linked file: no write (the other name keeps its bytes), no read unless allowed', async () => {
    const secret = path.join(home, 'secret.txt');
    fs.writeFileSync(secret, 'SECRET');
    fs.linkSync(secret, path.join(ws, 'hardlink'));
    await expect(writeWorkspaceText(ws, 'hardlink', 'overwritten')).rejects.toThrow('refused: hardlink has 2 hard links');
    await expect(readWorkspaceHead(ws, 'hardlink', 100)).rejects.toThrow('refused: hardlink has 2 hard links');
    expect(await readWorkspaceFile(ws, 'hardlink')).toBeUndefined();
    expect(fs.readFileSync(secret, 'utf8')).toBe('SECRET');
    for (const allow of [['hardlink'], ['./hardlink'], ['.']]) {
      expect((await readWorkspaceHead(ws, 'hardlink', 100, { hardLinkReadAllow: allow })).bytes.toString()).toBe('SECRET');
    }
    await expect(readWorkspaceHead(ws, 'hardlink', 100, { hardLinkReadAllow: ['hard'] })).rejects.toThrow(WorkspaceRefusal);
  });

  it('refuses a FIFO and a socket for every operation, without blocking', async () => {
    fs.mkdirSync(path.join(ws, 'd'));
    const fifo = spawn('mkfifo', [path.join(ws, 'd', 'pipe')]);
    await new Promise((resolve) => fifo.on('exit', resolve));
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(ws, 'd', 'sock'), resolve));
    try {
      for (const [name, kind] of [
        ['pipe', 'a FIFO'],
        ['sock', 'a socket'],
      ]) {
        const p = `d/${name}`;
        await expect(readWorkspaceHead(ws, p, 10)).rejects.toThrow(`refused: ${p} is ${kind}, not a regular file`);
        await expect(writeWorkspaceText(ws, p, 'x')).rejects.toThrow(`refused: ${p} is ${kind}, not a regular file`);
        await expect(listWorkspaceDir(ws, p)).rejects.toThrow(`refused: ${p} is ${kind}, not a directory`);
        await expect(writeWorkspaceText(ws, `${p}/x`, 'x')).rejects.toMatchObject({ code: 'ENOTDIR' });
        expect(await readWorkspaceFile(ws, p)).toBeUndefined();
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses every call once the workspace root is replaced, by a link or by another directory', async () => {
    const elsewhere = path.join(home, 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, 'a.txt'), 'OUTSIDE');
    fs.renameSync(ws, path.join(home, 'moved'));
    fs.symlinkSync(elsewhere, ws);
    await expect(readWorkspaceHead(ws, 'a.txt', 10)).rejects.toThrow('refused: the workspace root was replaced');
    await expect(writeWorkspaceText(ws, 'b.txt', 'x')).rejects.toThrow('refused: the workspace root was replaced');
    await expect(listWorkspaceDir(ws, '.')).rejects.toThrow('refused: the workspace root was replaced');
    expect(await readWorkspaceFile(ws, 'a.txt')).toBeUndefined();
    fs.unlinkSync(ws);
    fs.renameSync(elsewhere, ws);
    await expect(readWorkspaceHead(ws, 'a.txt', 10)).rejects.toThrow('refused: the workspace root was replaced');
    expect(fs.readdirSync(ws)).toEqual(['a.txt']);
  });

  it('seeds nested files and refuses a seed path out of the workspace or through a planted link', async () => {
    const dir = await createWorkspace(home, 'session-2', { 'deep/er/b.txt': 'ü'.repeat(70_000) });
    expect(fs.readFileSync(path.join(dir, 'deep', 'er', 'b.txt'), 'utf8')).toBe('ü'.repeat(70_000));
    await expect(createWorkspace(home, 'session-3', { '../escape.txt': 'x' })).rejects.toThrow(/outside the workspace/);
    expect(fs.existsSync(path.join(home, 'workspaces', 'escape.txt'))).toBe(false);
    const outside = path.join(home, 'outside.txt');
    fs.writeFileSync(outside, 'kept');
    fs.symlinkSync(outside, path.join(dir, 'out.txt'));
    await expect(createWorkspace(home, 'session-2', { 'out.txt': 'x' })).rejects.toThrow(/outside the workspace/);
    expect(fs.readFileSync(outside, 'utf8')).toBe('kept');
  });
});
