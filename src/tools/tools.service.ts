import { Injectable } from '@nestjs/common';
import { BuiltinToolSource, openWorkspaceSource } from './builtin-tool-source';
import { connectExternalServers, type ExternalMcpServerConfig } from './external-mcp';
import { resolveCommandLimits } from './sandbox/command-limits';
import { resolveCommandPlan } from './sandbox/command-tool';
import { ToolRegistry } from './tool-registry';
import {
  OPT_IN_TOOL_NAMES,
  WORKSPACE_TOOL_NAMES,
  workspaceDefinitionsKey,
  type CommandSandboxMode,
} from './workspace/workspace-tool-server';

export interface SessionToolsOptions {
  workspaceDir: string;
  /** makes the workspace directory if it is not made yet (prepareWorkspace): called before a tool or MCP server uses it */
  ensureWorkspace?: () => void;
  /** tool names the session may use; default: the workspace tools (execute_command/run_command only when named) */
  allow?: readonly string[];
  commandTimeoutMs?: number;
  /**
   * How the command tool is isolated: `auto` (bubblewrap when available, else the tool refuses to
   * run), `bubblewrap` (required), `none` (an explicit opt-out, recorded).
   */
  commandSandbox?: CommandSandboxMode;
  /**
   * External MCP servers whose tools join the session's: a scenario's `mcp_servers`, servers
   * registered in Postgres (McpServersService). A failure is reported, not fatal.
   */
  externalMcp?: readonly ExternalMcpServerConfig[];
  /** how long each external server has to connect and list its tools */
  mcpConnectTimeoutMs?: number;
  /** false: a session without tools (council roles) — nothing is started */
  enabled?: boolean;
}

/** Assembles a session's whole toolset before its loop starts; the loop only calls and closes it. */
@Injectable()
export class ToolsService {
  async createSessionTools(opts: SessionToolsOptions): Promise<ToolRegistry> {
    if (opts.enabled === false) return new ToolRegistry([]);
    const optIn = OPT_IN_TOOL_NAMES.filter((n) => opts.allow?.includes(n));
    const commandSandbox = opts.commandSandbox ?? 'auto';
    // decided before the session starts, so the session can record it (journal: command_sandbox)
    const commandPlan = optIn.length
      ? await resolveCommandPlan(commandSandbox, resolveCommandLimits({ timeoutMs: opts.commandTimeoutMs }))
      : undefined;
    const enabled = [...WORKSPACE_TOOL_NAMES, ...optIn];
    const serverOptions = { commandTimeoutMs: opts.commandTimeoutMs, commandSandbox, commandPlan };
    // the built-in server itself starts on the session's first tool call
    const workspace = await BuiltinToolSource.create('workspace', workspaceDefinitionsKey(enabled, serverOptions), () => {
      opts.ensureWorkspace?.();
      return openWorkspaceSource(opts.workspaceDir, enabled, serverOptions);
    });
    // a stdio server starts in the workspace
    if (opts.externalMcp?.length) opts.ensureWorkspace?.();
    const { sources, failures } = await connectExternalServers(opts.externalMcp ?? [], {
      timeoutMs: opts.mcpConnectTimeoutMs,
      workspace: opts.workspaceDir,
    });
    // an allow list limits the built-in tools; an external server the session asked for brings all of its own
    const allow = opts.allow ? [...opts.allow, ...sources.flatMap((s) => s.definitions().map((d) => d.name))] : undefined;
    return new ToolRegistry([workspace, ...sources], allow, failures, commandPlan?.record);
  }
}
