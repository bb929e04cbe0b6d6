import { Injectable } from '@nestjs/common';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpToolSource } from './mcp-tool-source';
import { ToolRegistry } from './tool-registry';
import { createWorkspaceToolServer, OPT_IN_TOOL_NAMES, WORKSPACE_TOOL_NAMES } from './workspace/workspace-tool-server';

export interface SessionToolsOptions {
  workspaceDir: string;
  /** tool names the session may use; default: the workspace tools (run_command only when named) */
  allow?: readonly string[];
  commandTimeoutMs?: number;
}

/** Builds the MCP-backed tool registry of one session. */
@Injectable()
export class ToolsService {
  async createSessionTools(opts: SessionToolsOptions): Promise<ToolRegistry> {
    const optIn = OPT_IN_TOOL_NAMES.filter((n) => opts.allow?.includes(n));
    const server = createWorkspaceToolServer(opts.workspaceDir, [...WORKSPACE_TOOL_NAMES, ...optIn], { commandTimeoutMs: opts.commandTimeoutMs });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const source = await McpToolSource.connect('workspace', clientSide);
    const close = source.close.bind(source);
    source.close = async () => {
      await close();
      await server.close();
    };
    return new ToolRegistry([source], opts.allow);
  }
}
