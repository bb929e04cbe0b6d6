// The built-in tools' MCP session, opened on the session's first tool call. Their definitions depend
// only on which tools are enabled and on the command tool's mode and limits (not on the workspace),
// so they are listed once per process for each such set, through a real server and client, and a
// session whose model never calls a tool (most single-turn eval trials) never opens a session at all.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { LlmToolDefinition } from '../provider/llm-types';
import { errorText } from './external-mcp-transport';
import { McpToolSource } from './mcp-tool-source';
import type { ToolOutcome, ToolSource } from './tool-types';
import { createWorkspaceToolServer, type WorkspaceToolOptions } from './workspace/workspace-tool-server';

/** A fresh built-in server on `root`, reached through the SDK client over an in-memory transport. */
export async function openWorkspaceSource(root: string, allow: readonly string[], options: WorkspaceToolOptions): Promise<McpToolSource> {
  const server = createWorkspaceToolServer(root, allow, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return McpToolSource.connect('workspace', clientSide, { alsoClose: () => server.close() });
}

/** listed definitions by the key of what they depend on; frozen, since every session shares them */
const listed = new Map<string, readonly LlmToolDefinition[]>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export class BuiltinToolSource implements ToolSource {
  private opened?: Promise<McpToolSource>;
  private closed = false;

  private constructor(
    readonly name: string,
    private readonly defs: readonly LlmToolDefinition[],
    private readonly open: () => Promise<McpToolSource>,
    opened?: McpToolSource,
  ) {
    if (opened) this.opened = Promise.resolve(opened);
  }

  /**
   * `key` names everything the definitions depend on; `open` connects a client to a fresh server of
   * this session's. The first session with a key opens its server at once, to list the definitions.
   */
  static async create(name: string, key: string, open: () => Promise<McpToolSource>): Promise<BuiltinToolSource> {
    const known = listed.get(key);
    if (known) return new BuiltinToolSource(name, known, open);
    const source = await open();
    const defs = deepFreeze(source.definitions().map((d) => ({ ...d })));
    listed.set(key, defs);
    return new BuiltinToolSource(name, defs, open, source);
  }

  definitions(): LlmToolDefinition[] {
    return this.defs as LlmToolDefinition[];
  }

  async call(tool: string, args: Record<string, unknown>, opts: { signal?: AbortSignal; timeoutMs: number }): Promise<ToolOutcome> {
    if (this.closed) return { status: 'error', text: `Error: the session's tools are closed`, durationMs: 0, server: this.name };
    const started = Date.now();
    let source: McpToolSource;
    try {
      source = await (this.opened ??= this.open());
    } catch (e) {
      return { status: 'error', text: `Error: ${errorText(e)}`, durationMs: Date.now() - started, server: this.name };
    }
    return source.call(tool, args, opts);
  }

  async close(): Promise<void> {
    this.closed = true;
    const source = await this.opened?.catch(() => undefined);
    await source?.close();
  }
}
