// The session's whole toolset: the tools it can call, merged from its MCP sources (the built-in
// workspace server and the external servers that connected), assembled by the tools module before
// the loop starts. It owns its sources: close() ends them all. Unknown names are answered, not
// thrown: the model reads `Unknown tool: <name>` and the loop goes on.
import type { LlmToolDefinition } from '../provider/llm-types';
import type { McpTransport } from './external-mcp-config';
import type { ExternalMcpFailure } from './external-mcp';
import type { CommandSandboxRecord } from './sandbox/sandbox-plan';
import type { McpServerDeath, ToolOutcome, ToolSource } from './tool-types';

/** How the session's external MCP servers came up: recorded by the loop when the session starts. */
export interface ToolConnections {
  connected: Array<{ name: string; transport: McpTransport; tools: string[]; renamed: Array<{ from: string; to: string }> }>;
  failed: ExternalMcpFailure[];
}

interface Entry {
  source: ToolSource;
  /** the tool's name on its server */
  tool: string;
  definition: LlmToolDefinition;
}

export class ToolRegistry {
  private readonly byName = new Map<string, Entry>();
  readonly connections: ToolConnections;
  private readonly deaths: McpServerDeath[] = [];
  private readonly deathListeners = new Set<(d: McpServerDeath) => void>();

  constructor(
    private readonly sources: ToolSource[],
    allow?: readonly string[],
    failed: ExternalMcpFailure[] = [],
    /** how the command tool is isolated, when the session has it: recorded by the loop when the session starts */
    readonly sandbox?: CommandSandboxRecord,
  ) {
    const allowed = allow ? new Set(allow) : undefined;
    const connected: ToolConnections['connected'] = [];
    for (const source of sources) {
      const exposed: string[] = [];
      const renamed: Array<{ from: string; to: string }> = [];
      for (const def of source.definitions()) {
        if (allowed && !allowed.has(def.name)) continue;
        // first source wins: built-in workspace tools are never shadowed; a later server's tool of
        // the same name is reachable as `<server>__<tool>`
        const name = this.freeName(source.name, def.name);
        if (name !== def.name) renamed.push({ from: def.name, to: name });
        this.byName.set(name, { source, tool: def.name, definition: name === def.name ? def : { ...def, name } });
        exposed.push(name);
      }
      if (source.transport) connected.push({ name: source.name, transport: source.transport, tools: exposed, renamed });
      source.onDied?.((d) => this.reportDeath(d));
    }
    this.connections = { connected, failed };
  }

  definitions(): LlmToolDefinition[] {
    return [...this.byName.values()].map((e) => e.definition);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  async execute(name: string, args: Record<string, unknown>, opts: { signal?: AbortSignal; timeoutMs: number }): Promise<ToolOutcome> {
    const entry = this.byName.get(name);
    if (!entry) return { status: 'unknown_tool', text: `Unknown tool: ${name}`, durationMs: 0 };
    if (opts.signal?.aborted) return { status: 'aborted', text: 'Tool execution aborted', durationMs: 0, server: entry.source.name };
    return entry.source.call(entry.tool, args, opts);
  }

  /**
   * Calls `listener` for each external server that dies mid-session, those that already have
   * included (a server may die before the loop subscribes). Returns an unsubscribe.
   */
  onServerDied(listener: (d: McpServerDeath) => void): () => void {
    for (const d of this.deaths) listener(d);
    this.deathListeners.add(listener);
    return () => void this.deathListeners.delete(listener);
  }

  /** The process of an external stdio server (scenarios kill it to test a death). */
  serverPid(name: string): number | undefined {
    return this.sources.find((s) => s.name === name && s.transport)?.pid;
  }

  async close(): Promise<void> {
    this.deathListeners.clear();
    await Promise.allSettled(this.sources.map((s) => s.close()));
  }

  private reportDeath(d: McpServerDeath): void {
    this.deaths.push(d);
    for (const listener of this.deathListeners) listener(d);
  }

  private freeName(server: string, tool: string): string {
    if (!this.byName.has(tool)) return tool;
    const prefixed = `${server}__${tool}`;
    let name = prefixed;
    for (let n = 2; this.byName.has(name); n++) name = `${prefixed}_${n}`;
    return name;
  }
}
