// FIFOs, sockets, hard links and a replaced root, against every file tool through the real MCP
// server and client: each is refused, and the event loop keeps turning while the call is pending.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkspaceSource } from '../../src/tools/builtin-tool-source';
import { createWorkspace } from '../../src/tools/workspace/workspace-manager';
import { countingTurns, workspaceClient, type WorkspaceClient } from './workspace-kit';

const FILE_TOOLS = ['read_file', 'write_file', 'list_files'] as const;
const SECRET = 'SECRET-OUTSIDE-BYTES';

/**
 * Watches the FIFO from another process and leaves `marker` the moment anything opens it — an
 * event, not a timer: a reader blocked in open() makes a non-blocking open for writing succeed
 * (Linux counts the waiting reader), and a writer blocked in open() is released by a non-blocking
 * reader (it is counted as one, so a read finds EAGAIN, or its bytes). Either way the marker is
 * written before the caller can go on, and the caller is unblocked, so a regression fails the test
 * instead of hanging the run. A correct tool never opens the FIFO, whatever the machine's speed.
 */
function fifoWatch(fifo: string, marker: string): ChildProcess {
  const script = `
    const fs = require('fs');
    const { O_WRONLY, O_RDONLY, O_NONBLOCK } = fs.constants;
    const caught = (how) => { fs.writeFileSync(${JSON.stringify(marker)}, how); process.exit(0); };
    setInterval(() => {
      try { const fd = fs.openSync(${JSON.stringify(fifo)}, O_WRONLY | O_NONBLOCK); caught('a reader opened it'); fs.closeSync(fd); } catch {}
      const fd = fs.openSync(${JSON.stringify(fifo)}, O_RDONLY | O_NONBLOCK);
      // no data yet but a writer counted (EAGAIN), or its bytes: a writer is in open() or past it
      try { if (fs.readSync(fd, Buffer.alloc(64)) > 0) caught('a writer opened it'); } catch (e) { if (e.code === 'EAGAIN') caught('a writer opened it'); }
      fs.closeSync(fd);
    }, 10);`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

describe('workspace file tools refuse what they must not open, without blocking', () => {
  let home: string;
  let dir: string;
  let socketServer: net.Server;
  let client: WorkspaceClient;

  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-refusals-'));
    dir = await createWorkspace(home, 'session-1', { 'notes.txt': 'hello\n' });
    fs.writeFileSync(path.join(home, 'secret.txt'), SECRET);
    expect(spawnSync('mkfifo', [path.join(dir, 'pipe')]).status).toBe(0);
    socketServer = net.createServer();
    await new Promise<void>((resolve) => socketServer.listen(path.join(dir, 'sock'), resolve));
    fs.linkSync(path.join(home, 'secret.txt'), path.join(dir, 'hardlink'));
    client = await workspaceClient(dir);
  });
  afterAll(async () => {
    await client?.close();
    await new Promise((resolve) => socketServer?.close(resolve));
    fs.rmSync(home, { recursive: true, force: true });
  });

  describe.each([
    ['pipe', 'a FIFO'],
    ['sock', 'a socket'],
  ])('%s (%s)', (name, kind) => {
    it.each(FILE_TOOLS)('%s is refused while the event loop keeps turning', async (tool) => {
      const marker = path.join(home, `opened-${tool}`);
      const watchdog = name === 'pipe' ? fifoWatch(path.join(dir, name), marker) : undefined;
      try {
        const { result, turns } = await countingTurns(() => client.call(tool, { path: name, content: 'x' }));
        expect(fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : 'never opened').toBe('never opened');
        const wanted = tool === 'list_files' ? 'a directory' : 'a regular file';
        expect(result).toEqual(expect.objectContaining({ status: 'error', text: `refused: ${name} is ${kind}, not ${wanted}` }));
        expect(turns).toBeGreaterThan(0);
      } finally {
        // the next case's watcher must not see this one's reader
        if (watchdog)
          await new Promise((resolve) => (watchdog.exitCode !== null ? resolve(null) : (watchdog.once('exit', resolve), watchdog.kill())));
      }
      expect(fs.lstatSync(path.join(dir, name)).isFile()).toBe(false);
    });
  });

  describe('a hard link to a file outside', () => {
    it('read_file is refused and shows none of its bytes', async () => {
      const { result, turns } = await countingTurns(() => client.call('read_file', { path: 'hardlink' }));
      expect(result).toEqual(expect.objectContaining({ status: 'error', text: 'refused: hardlink has 2 hard links' }));
      expect(turns).toBeGreaterThan(0);
    });

    it('write_file is refused and the outside file keeps its bytes', async () => {
      const { result, turns } = await countingTurns(() => client.call('write_file', { path: 'hardlink', content: 'overwritten' }));
      expect(result).toEqual(expect.objectContaining({ status: 'error', text: 'refused: hardlink has 2 hard links' }));
      expect(turns).toBeGreaterThan(0);
      expect(fs.readFileSync(path.join(home, 'secret.txt'), 'utf8')).toBe(SECRET);
    });

    it('list_files shows its name only, and refuses it as a directory', async () => {
      const { result, turns } = await countingTurns(() => client.call('list_files', { path: 'hardlink' }));
      expect(result).toEqual(expect.objectContaining({ status: 'error', text: 'Not a directory: hardlink' }));
      expect(turns).toBeGreaterThan(0);
      const listed = await client.call('list_files', {});
      expect(listed.text).toBe('hardlink\nnotes.txt\npipe\nsock');
      expect(listed.text).not.toContain(SECRET);
    });

    it('read_file reads it when the allow-list names it, and only then', async () => {
      const allowed = await workspaceClient(dir, { hardLinkReadAllow: ['hardlink'] });
      try {
        expect(await allowed.call('read_file', { path: 'hardlink' })).toEqual(expect.objectContaining({ status: 'ok', text: SECRET }));
        expect((await allowed.call('write_file', { path: 'hardlink', content: 'x' })).text).toBe('refused: hardlink has 2 hard links');
      } finally {
        await allowed.close();
      }
    });
  });

  it('refuses every file tool and the command tool once the workspace root is replaced by a link, and touches nothing there', async () => {
    const ws = await createWorkspace(home, 'session-2', { 'notes.txt': 'inside\n' });
    const other = await workspaceClient(ws);
    const elsewhere = path.join(home, 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, 'notes.txt'), SECRET);
    try {
      expect((await other.call('read_file', { path: 'notes.txt' })).text).toBe('inside\n');
      fs.renameSync(ws, path.join(home, 'session-2-moved'));
      fs.symlinkSync(elsewhere, ws);
      for (const tool of FILE_TOOLS) {
        const { result, turns } = await countingTurns(() => other.call(tool, { path: 'notes.txt', content: 'x' }));
        expect(result).toEqual(expect.objectContaining({ status: 'error', text: 'refused: the workspace root was replaced' }));
        expect(turns).toBeGreaterThan(0);
      }
      // nor does a command run there (without a sandbox here, where a replaced root would be its cwd)
      const command = await openWorkspaceSource(ws, ['execute_command'], { commandSandbox: 'none' });
      try {
        const ran = await command.call('execute_command', { command: 'touch ran.txt' }, { timeoutMs: 20_000 });
        expect(ran.status).toBe('error');
        expect(ran.text).toContain('refused: the workspace root was replaced');
      } finally {
        await command.close();
      }
      expect(fs.readdirSync(elsewhere)).toEqual(['notes.txt']);
      expect(fs.readFileSync(path.join(elsewhere, 'notes.txt'), 'utf8')).toBe(SECRET);
    } finally {
      await other.close();
    }
  });

  it('still reads, writes and lists ordinary files after all that', async () => {
    expect((await client.call('write_file', { path: 'out/new.txt', content: 'fine' })).text).toBe('Wrote 4 bytes to out/new.txt');
    expect((await client.call('read_file', { path: 'out/new.txt' })).text).toBe('fine');
    expect((await client.call('list_files', { path: 'out' })).text).toBe('new.txt');
  });
});
