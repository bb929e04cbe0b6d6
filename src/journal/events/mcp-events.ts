import { z } from 'zod';
import { defineEvent } from './define-event';

const transport = z.enum(['stdio', 'http']);

/** External MCP servers of a session (mcp-agent-technical-spec.md §7, the direct-process error case). */
export const MCP_EVENTS = {
  mcp_server_connected: defineEvent(
    'An external MCP server (stdio or Streamable HTTP) connected; its tools join the session, a tool whose name was taken as `<server>__<tool>`.',
    {
      name: z.string(),
      transport,
      tools: z.array(z.string()),
      renamed: z.array(z.object({ from: z.string(), to: z.string() })),
    },
  ),
  mcp_server_failed: defineEvent(
    'An external MCP server could not be connected (it failed to start, refused, or did not answer in time); the session goes on without its tools.',
    {
      name: z.string(),
      transport,
      command: z.string().optional(),
      url: z.string().optional(),
      error: z.string(),
      stderr: z.string(),
    },
  ),
  mcp_added: defineEvent(
    "An external MCP server was added to the registry (POST /api/mcp/add, `loupe mcp add`; the spec's `mcpAdded`) and mcp-config.json under LOUPE_HOME rewritten; a host event (no session).",
    {
      name: z.string(),
      transport,
      /** the command line or the URL */
      endpoint: z.string(),
      configFile: z.string(),
    },
  ),
  mcp_server_died: defineEvent(
    'An external MCP server stopped mid-session (its process exited, its URL stopped answering); calls to its tools come back as tool errors and the session goes on.',
    {
      name: z.string(),
      transport,
      error: z.string(),
      stderr: z.string(),
    },
  ),
};
