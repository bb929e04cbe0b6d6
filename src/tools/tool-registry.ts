// The session's whole toolset: the tools it can call, merged from its MCP sources (the built-in
// workspace server and the external servers that connected), assembled by the tools module before
// the loop starts. It owns its sources: close() ends them all. Unknown names are answered, not
// thrown: the model reads `Unknown tool: <name>` and the loop goes on.
import type { LlmToolDefinition } from '../provider/llm-types';
import type { ExternalMcpFailure } from './external-mcp';
import type { ToolOutcome, ToolSource } from './tool-types';

/** How the session's external MCP servers came up: recorded by the loop when the session starts. */
export interface ToolConnections {
  connected: Array<{ name: string; tools: string[] }>;
  failed: ExternalMcpFailure[];
}

export class ToolRegistry {
  private readonly byName = new Map<string, ToolSource>();

  constructor(
    private readonly sources: ToolSource[],
    private readonly allow?: readonly string[],
    readonly connections: ToolConnections = { connected: [], failed: [] },
  ) {
    const allowed = allow ? new Set(allow) : undefined;
    for (const source of sources) {
      for (const def of source.definitions()) {
        if (allowed && !allowed.has(def.name)) continue;
        // first source wins: built-in workspace tools cannot be shadowed by an external server
        if (!this.byName.has(def.name)) this.byName.set(def.name, source);
      }
    }
  }

  definitions(): LlmToolDefinition[] {
    return [...this.byName.entries()].map(([name, source]) => source.definitions().find((d) => d.name === name)!);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  async execute(name: string, args: Record<string, unknown>, opts: { signal?: AbortSignal; timeoutMs: number }): Promise<ToolOutcome> {
    const source = this.byName.get(name);
    if (!source) return { status: 'unknown_tool', text: `Unknown tool: ${name}`, durationMs: 0 };
    if (opts.signal?.aborted) return { status: 'aborted', text: 'Tool execution aborted', durationMs: 0, server: source.name };
    return source.call(name, args, opts);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.sources.map((s) => s.close()));
  }
}
