import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BuiltinToolSource, openWorkspaceSource } from '../../src/tools/builtin-tool-source';
import { ToolsService } from '../../src/tools/tools.service';
import { createWorkspace } from '../../src/tools/workspace/workspace-manager';
import { workspaceDefinitionsKey } from '../../src/tools/workspace/workspace-tool-server';

const opts = { timeoutMs: 5_000 };

/** A real built-in server for `dir`, reached through the SDK client; counts how often one is opened. */
function opener(dir: string, allow: readonly string[] = ['read_file', 'write_file', 'list_files']) {
  const opened = { count: 0 };
  const open = () => {
    opened.count++;
    return openWorkspaceSource(dir, allow, {});
  };
  return { open, opened };
}

describe('built-in tools: listed once per set, each session’s server started on its first call', () => {
  let home: string;
  beforeAll(() => (home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-builtin-'))));
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  it('lists through a real server the first time; a later session with the same key starts nothing until a tool is called', async () => {
    const key = `test-${Date.now()}-a`;
    const first = opener(await createWorkspace(home, 'a1', { 'who.txt': 'first' }));
    const a = await BuiltinToolSource.create('workspace', key, first.open);
    expect(first.opened.count).toBe(1);
    expect(a.definitions().map((d) => d.name)).toEqual(['read_file', 'write_file', 'list_files']);

    const second = opener(await createWorkspace(home, 'a2', { 'who.txt': 'second' }));
    const b = await BuiltinToolSource.create('workspace', key, second.open);
    expect(second.opened.count).toBe(0);
    expect(b.definitions()).toEqual(a.definitions());
    expect(Object.isFrozen(b.definitions()[0].parameters)).toBe(true);

    // two calls at once open one server, and it is this session's (its own workspace)
    const [r1, r2] = await Promise.all([b.call('read_file', { path: 'who.txt' }, opts), b.call('list_files', {}, opts)]);
    expect(second.opened.count).toBe(1);
    expect(r1).toEqual(expect.objectContaining({ status: 'ok', text: 'second', server: 'workspace' }));
    expect(r2.text).toBe('who.txt');
    expect((await a.call('read_file', { path: 'who.txt' }, opts)).text).toBe('first');
    await Promise.all([a.close(), b.close()]);
  });

  it('a session closed without a call never starts a server; a call after close is an error, not a new server', async () => {
    const key = `test-${Date.now()}-b`;
    const dir = await createWorkspace(home, 'b1', {});
    await (await BuiltinToolSource.create('workspace', key, opener(dir).open)).close();
    const lazy = opener(dir);
    const s = await BuiltinToolSource.create('workspace', key, lazy.open);
    await s.close();
    expect(await s.call('list_files', {}, opts)).toEqual(expect.objectContaining({ status: 'error' }));
    expect(lazy.opened.count).toBe(0);
  });

  it('a server that cannot start is the call’s error, not a thrown one', async () => {
    const key = `test-${Date.now()}-c`;
    const dir = await createWorkspace(home, 'c1', {});
    await (await BuiltinToolSource.create('workspace', key, opener(dir).open)).close();
    const s = await BuiltinToolSource.create('workspace', key, () => Promise.reject(new Error('no server today')));
    expect(await s.call('list_files', {}, opts)).toEqual(expect.objectContaining({ status: 'error', text: 'Error: no server today' }));
    await s.close();
  });

  it('the key holds what the definitions depend on: the tools, and the command tool’s mode and limits', () => {
    const base = ['read_file', 'write_file', 'list_files'];
    const withCommand = [...base, 'execute_command'];
    expect(workspaceDefinitionsKey(base)).toBe(workspaceDefinitionsKey([...base].reverse()));
    expect(workspaceDefinitionsKey(base, { commandTimeoutMs: 5_000 })).toBe(workspaceDefinitionsKey(base, { commandTimeoutMs: 9_000 }));
    expect(workspaceDefinitionsKey(withCommand)).not.toBe(workspaceDefinitionsKey(base));
    expect(workspaceDefinitionsKey(withCommand, { commandTimeoutMs: 5_000 })).not.toBe(
      workspaceDefinitionsKey(withCommand, { commandTimeoutMs: 9_000 }),
    );
    expect(workspaceDefinitionsKey(withCommand, { commandSandbox: 'none' })).not.toBe(
      workspaceDefinitionsKey(withCommand, { commandSandbox: 'auto' }),
    );
  });

  it('through the tools service: sessions differing in the command tool’s timeout are offered its own description each', async () => {
    const service = new ToolsService();
    const dir = await createWorkspace(home, 'd1', {});
    const allow = ['list_files', 'execute_command'];
    const describe = async (commandTimeoutMs: number) => {
      const tools = await service.createSessionTools({ workspaceDir: dir, allow, commandTimeoutMs, commandSandbox: 'none' });
      try {
        return tools.definitions().find((d) => d.name === 'execute_command')!.description;
      } finally {
        await tools.close();
      }
    };
    expect(await describe(5_000)).toContain('Limits: 5 s');
    expect(await describe(7_000)).toContain('Limits: 7 s');
    expect(await describe(5_000)).toContain('Limits: 5 s');
  });
});
