import type { LlmToolDefinition } from '../provider/llm-types';
import { ToolRegistry } from './tool-registry';
import type { McpServerDeath, ToolSource } from './tool-types';

function source(
  name: string,
  tools: string[],
  transport?: 'stdio' | 'http',
): ToolSource & { die(d: McpServerDeath): void; calls: string[] } {
  let listener: ((d: McpServerDeath) => void) | undefined;
  const calls: string[] = [];
  return {
    name,
    transport,
    calls,
    definitions: (): LlmToolDefinition[] =>
      tools.map((t) => ({ name: t, description: `${name}:${t}`, parameters: { type: 'object', properties: {} } })),
    call: async (tool) => {
      calls.push(tool);
      return { status: 'ok', text: `${name}:${tool}`, durationMs: 0, server: name };
    },
    onDied: (l) => {
      listener = l;
      return () => (listener = undefined);
    },
    die: (d) => listener?.(d),
    close: async () => {},
  };
}

describe('ToolRegistry', () => {
  it('never lets an external server shadow a built-in tool: the later tool joins as <server>__<tool>', async () => {
    const builtIn = source('workspace', ['read_file', 'list_files']);
    const fs = source('fs', ['read_file', 'stat'], 'stdio');
    const registry = new ToolRegistry([builtIn, fs]);
    expect(registry.definitions().map((d) => d.name)).toEqual(['read_file', 'list_files', 'fs__read_file', 'stat']);
    expect((await registry.execute('read_file', {}, { timeoutMs: 1 })).text).toBe('workspace:read_file');
    // the renamed tool reaches its own server under its own name
    expect((await registry.execute('fs__read_file', {}, { timeoutMs: 1 })).text).toBe('fs:read_file');
    expect(fs.calls).toEqual(['read_file']);
    expect(registry.connections.connected).toEqual([
      { name: 'fs', transport: 'stdio', tools: ['fs__read_file', 'stat'], renamed: [{ from: 'read_file', to: 'fs__read_file' }] },
    ]);
  });

  it('renames between two external servers too, the first listed keeping the name', async () => {
    const registry = new ToolRegistry([source('workspace', []), source('a', ['echo'], 'stdio'), source('b', ['echo', 'a__echo'], 'http')]);
    expect(registry.definitions().map((d) => d.name)).toEqual(['echo', 'b__echo', 'a__echo']);
    expect((await registry.execute('b__echo', {}, { timeoutMs: 1 })).text).toBe('b:echo');
    // a name taken by a renamed tool is not taken twice
    const clash = new ToolRegistry([source('workspace', ['x']), source('s', ['x', 's__x'], 'stdio')]);
    expect(clash.definitions().map((d) => d.name)).toEqual(['x', 's__x', 's__s__x']);
  });

  it('reports a server death to listeners, including one that subscribes after it happened', () => {
    const s = source('fs', ['stat'], 'stdio');
    const registry = new ToolRegistry([source('workspace', []), s]);
    const death: McpServerDeath = { name: 'fs', transport: 'stdio', error: 'exited', stderr: 'boom' };
    const early: McpServerDeath[] = [];
    registry.onServerDied((d) => early.push(d));
    s.die(death);
    const late: McpServerDeath[] = [];
    const stop = registry.onServerDied((d) => late.push(d));
    expect(early).toEqual([death]);
    expect(late).toEqual([death]);
    stop();
    s.die({ ...death, error: 'again' });
    expect(late).toHaveLength(1);
  });
});
