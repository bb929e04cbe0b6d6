import { z } from 'zod';
import { defineEvent } from './define-event';

/** External MCP servers of a session (mcp-agent-technical-spec.md §7, the direct-process error case). */
export const MCP_EVENTS = {
  mcp_server_connected: defineEvent('An external MCP server connected; its tools join the session.', { name: z.string(), tools: z.array(z.string()) }),
  mcp_server_failed: defineEvent('An external MCP server failed to connect; the session goes on without its tools.', {
    name: z.string(), command: z.string(), error: z.string(), stderr: z.string(),
  }),
};
