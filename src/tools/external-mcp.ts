// External MCP servers a session asks for, started over stdio through the official SDK client.
// A server that fails to connect is reported and skipped: the session goes on without its tools.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpToolSource } from './mcp-tool-source';

export interface ExternalMcpServerConfig {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export interface ExternalMcpFailure {
  name: string;
  command: string;
  error: string;
  stderr: string;
}

export const MCP_CONNECT_TIMEOUT_MS = 10_000;

export async function connectExternalServers(
  configs: readonly ExternalMcpServerConfig[],
  opts: { timeoutMs?: number } = {},
): Promise<{ sources: McpToolSource[]; failures: ExternalMcpFailure[] }> {
  const results = await Promise.all(configs.map(async (c) => {
    let stderr = '';
    const transport = new StdioClientTransport({
      command: c.command,
      args: c.args ?? [],
      // only PATH is inherited: a server gets the variables its config names, not Loupe's secrets
      env: { PATH: process.env.PATH ?? '', ...(c.env ?? {}) },
      cwd: c.cwd,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 4_000) stderr += d.toString('utf8');
    });
    try {
      const source = await McpToolSource.connect(c.name, transport, { timeoutMs: opts.timeoutMs ?? MCP_CONNECT_TIMEOUT_MS });
      return { source };
    } catch (e) {
      await transport.close().catch(() => undefined);
      return { failure: { name: c.name, command: [c.command, ...(c.args ?? [])].join(' '), error: (e as Error).message, stderr: stderr.trim() } };
    }
  }));
  return {
    sources: results.flatMap((r) => (r.source ? [r.source] : [])),
    failures: results.flatMap((r) => (r.failure ? [r.failure] : [])),
  };
}
