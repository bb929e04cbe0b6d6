// A server's health: can it be connected and does it list its tools, how fast. The probe is a
// whole connect + tools/list + close, the same path a session takes, bounded by a timeout.
import type { ExternalMcpServerConfig } from './external-mcp-config';
import { connectExternalServer } from './external-mcp';

export const MCP_HEALTH_STATUSES = ['connected', 'failed', 'not_checked'] as const;
export type McpHealthStatus = (typeof MCP_HEALTH_STATUSES)[number];

export interface McpServerHealth {
  status: McpHealthStatus;
  /** connect + tools/list, in ms */
  latencyMs: number | null;
  toolCount: number | null;
  error: string | null;
  checkedAt: Date | null;
}

export const NOT_CHECKED: McpServerHealth = { status: 'not_checked', latencyMs: null, toolCount: null, error: null, checkedAt: null };

export const MCP_HEALTH_TIMEOUT_MS = 10_000;

export async function probeServer(config: ExternalMcpServerConfig, timeoutMs = MCP_HEALTH_TIMEOUT_MS): Promise<McpServerHealth> {
  const checkedAt = new Date();
  const started = performance.now();
  const result = await connectExternalServer(config, { timeoutMs });
  const latencyMs = Math.round(performance.now() - started);
  if (!result.ok) {
    const { error, stderr } = result.failure;
    return { status: 'failed', latencyMs, toolCount: null, error: stderr ? `${error}; stderr: ${stderr.slice(-500)}` : error, checkedAt };
  }
  const toolCount = result.source.definitions().length;
  await result.source.close().catch(() => undefined);
  return { status: 'connected', latencyMs, toolCount, error: null, checkedAt };
}
