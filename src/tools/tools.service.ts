import { Injectable } from '@nestjs/common';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpToolSource } from './mcp-tool-source';
import { ToolRegistry } from './tool-registry';
import { createWorkspaceToolServer, WORKSPACE_TOOL_NAMES } from './workspace/workspace-tool-server';

export interface SessionToolsOptions {
  workspaceDir: string;
  /** tool names the session may use; default: all workspace tools */
  allow?: readonly string[];
}

/** Builds the MCP-backed tool registry of one session. */
@Injectable()
export class ToolsService {
  async createSessionTools(opts: SessionToolsOptions): Promise<ToolRegistry> {
    const server = createWorkspaceToolServer(opts.workspaceDir, WORKSPACE_TOOL_NAMES);
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
