import type { LlmToolDefinition } from '../provider/llm-types';

export type ToolOutcomeStatus = 'ok' | 'error' | 'unknown_tool' | 'timeout' | 'aborted';

export interface ToolOutcome {
  status: ToolOutcomeStatus;
  /** what goes back to the model */
  text: string;
  durationMs: number;
  /** which MCP server answered */
  server?: string;
}

/** A set of tools reached through one MCP client. */
export interface ToolSource {
  readonly name: string;
  definitions(): LlmToolDefinition[];
  call(tool: string, args: Record<string, unknown>, opts: { signal?: AbortSignal; timeoutMs: number }): Promise<ToolOutcome>;
  close(): Promise<void>;
}
