// Helpers for the workspace tools' refusal and race tests: a real built-in MCP server and client,
// and a count of event-loop turns taken while a call was pending.
import { openWorkspaceSource } from '../../src/tools/builtin-tool-source';
import type { McpToolSource } from '../../src/tools/mcp-tool-source';
import type { ToolOutcome } from '../../src/tools/tool-types';
import { WORKSPACE_TOOL_NAMES, type WorkspaceToolOptions } from '../../src/tools/workspace/workspace-tool-server';

export interface WorkspaceClient {
  call(tool: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  close(): Promise<void>;
}

export async function workspaceClient(dir: string, opts: WorkspaceToolOptions = {}): Promise<WorkspaceClient> {
  const source: McpToolSource = await openWorkspaceSource(dir, WORKSPACE_TOOL_NAMES, opts);
  return {
    call: (tool, args) => source.call(tool, args, { timeoutMs: 20_000 }),
    close: () => source.close(),
  };
}

/**
 * Runs `op` while counting setImmediate turns: a call that held the event loop (a synchronous open
 * of a FIFO) lets none run until it returns.
 */
export async function countingTurns<T>(op: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let next: NodeJS.Immediate;
  const spin = () => {
    turns++;
    next = setImmediate(spin);
  };
  next = setImmediate(spin);
  try {
    const result = await op();
    return { result, turns };
  } finally {
    clearImmediate(next!);
  }
}
