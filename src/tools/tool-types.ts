import type { LlmToolDefinition } from '../provider/llm-types';
import type { McpTransport } from './external-mcp-config';

export const TOOL_OUTCOME_STATUSES = ['ok', 'error', 'unknown_tool', 'timeout', 'aborted'] as const;
export type ToolOutcomeStatus = (typeof TOOL_OUTCOME_STATUSES)[number];

export interface ToolOutcome {
  status: ToolOutcomeStatus;
  /** what goes back to the model */
  text: string;
  durationMs: number;
  /** which MCP server answered */
  server?: string;
}

/** An external MCP server that stopped mid-session (its process exited, its URL stopped answering). */
export interface McpServerDeath {
  name: string;
  transport: McpTransport;
  error: string;
  /** the tail of its stderr (stdio) */
  stderr: string;
}

/** A set of tools reached through one MCP client. */
export interface ToolSource {
  readonly name: string;
  /** how an external server is reached; undefined for the built-in tools */
  readonly transport?: McpTransport;
  /** an external stdio server's process */
  readonly pid?: number;
  definitions(): LlmToolDefinition[];
  call(tool: string, args: Record<string, unknown>, opts: { signal?: AbortSignal; timeoutMs: number }): Promise<ToolOutcome>;
  /** calls `listener` once if the server dies mid-session; returns an unsubscribe */
  onDied?(listener: (d: McpServerDeath) => void): () => void;
  close(): Promise<void>;
}
