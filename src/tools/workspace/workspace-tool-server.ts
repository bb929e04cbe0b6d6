// The built-in workspace tools (read_file, write_file, list_files) as a real MCP server, built with
// the official SDK and reached by the loop through the SDK's client like any external server.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { COMMAND_TOOL_NAMES, registerCommandTools } from '../sandbox/command-tool';
import { resolveCommandLimits, type CommandLimits } from '../sandbox/command-limits';
import type { CommandPlan, CommandSandboxMode } from '../sandbox/sandbox-plan';
import type { SandboxProber } from '../sandbox/sandbox-probe';
import { decodeFileText } from './file-text';
import { listWorkspaceDir, readWorkspaceHead, writeWorkspaceText } from './workspace-file-io';
import { workspaceErrorText } from './workspace-paths';
import { sharedSchemaValidator } from '../shared-schema-validator';

/** Offered by default. The command tool (`execute_command`, alias `run_command`) only when a session's allow list names it. */
export const WORKSPACE_TOOL_NAMES = ['read_file', 'write_file', 'list_files'] as const;
export const OPT_IN_TOOL_NAMES = COMMAND_TOOL_NAMES;
export const MAX_READ_BYTES = 1_000_000;
const MAX_LIST_ENTRIES = 1_000;

type ToolText = { content: Array<{ type: 'text'; text: string }>; isError?: boolean };

const ok = (text: string): ToolText => ({ content: [{ type: 'text', text }] });
const fail = (text: string): ToolText => ({ content: [{ type: 'text', text }], isError: true });

async function guarded(requested: string, fn: () => Promise<ToolText>): Promise<ToolText> {
  try {
    return await fn();
  } catch (e) {
    return fail(workspaceErrorText(e, requested));
  }
}

export type { CommandSandboxMode };

export interface WorkspaceToolOptions {
  commandTimeoutMs?: number;
  commandSandbox?: CommandSandboxMode;
  /** the other command limits (memory, cpu, pids, output); defaults from the spec */
  commandLimits?: Partial<CommandLimits>;
  /** the session's sandbox, decided (and recorded) before the server starts; else worked out on the first command */
  commandPlan?: CommandPlan;
  /** how the machine's sandbox support is found (tests simulate a machine without bubblewrap) */
  sandboxProbe?: SandboxProber;
  /** workspace-relative files (or directories) read_file may read with more than one hard link; none by default */
  hardLinkReadAllow?: readonly string[];
}

// built once: zod compiles a schema's parser on first use, so a schema per session would be compiled per session
const READ_FILE_INPUT = z.object({ path: z.string().describe('File path relative to the workspace root') });
const WRITE_FILE_INPUT = z.object({
  path: z.string().describe('File path relative to the workspace root'),
  content: z.string().describe('The full new content of the file'),
});
const LIST_FILES_INPUT = z.object({ path: z.string().optional().describe('Directory relative to the workspace root') });

function commandLimitsOf(opts: WorkspaceToolOptions): CommandLimits {
  return (
    opts.commandPlan?.limits ??
    resolveCommandLimits({ ...opts.commandLimits, timeoutMs: opts.commandTimeoutMs ?? opts.commandLimits?.timeoutMs })
  );
}

/**
 * Everything the server's tool definitions depend on, as a key (the workspace is not part of it):
 * the enabled tools and, with the command tool, its mode and limits (they are in its description).
 */
export function workspaceDefinitionsKey(allow: readonly string[], opts: WorkspaceToolOptions = {}): string {
  const command = COMMAND_TOOL_NAMES.some((n) => allow.includes(n));
  return JSON.stringify([[...allow].sort(), command ? [opts.commandSandbox ?? 'auto', commandLimitsOf(opts)] : null]);
}

export function createWorkspaceToolServer(
  root: string,
  allow: readonly string[] = WORKSPACE_TOOL_NAMES,
  opts: WorkspaceToolOptions = {},
): McpServer {
  const server = new McpServer({ name: 'loupe-workspace', version: '0.1.0' }, { jsonSchemaValidator: sharedSchemaValidator() });
  const enabled = new Set(allow);

  if (enabled.has('read_file')) {
    server.registerTool(
      'read_file',
      {
        description: 'Read a text file from the workspace. Paths are relative to the workspace root.',
        inputSchema: READ_FILE_INPUT,
      },
      async ({ path: p }) =>
        guarded(p, async () => {
          const { bytes, size } = await readWorkspaceHead(root, p, MAX_READ_BYTES, { hardLinkReadAllow: opts.hardLinkReadAllow });
          const text = decodeFileText(p, bytes, size);
          return ok(size > MAX_READ_BYTES ? `${text}\n[... file truncated: ${size - MAX_READ_BYTES} more bytes]` : text);
        }),
    );
  }

  if (enabled.has('write_file')) {
    server.registerTool(
      'write_file',
      {
        description: 'Create or overwrite a text file in the workspace. Parent directories are created.',
        inputSchema: WRITE_FILE_INPUT,
      },
      async ({ path: p, content }) =>
        guarded(p, async () => {
          const { written, rel } = await writeWorkspaceText(root, p, content);
          return ok(`Wrote ${written} bytes to ${rel}`);
        }),
    );
  }

  if (enabled.has('list_files')) {
    server.registerTool(
      'list_files',
      {
        description: 'List files and directories (directories end with "/"). Defaults to the workspace root.',
        inputSchema: LIST_FILES_INPUT,
      },
      async ({ path: p }) =>
        guarded(p ?? '.', async () => {
          const entries = await listWorkspaceDir(root, p ?? '.');
          const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
          const shown = names.slice(0, MAX_LIST_ENTRIES);
          const more = names.length - shown.length;
          return ok(shown.length ? shown.join('\n') + (more > 0 ? `\n[... ${more} more entries]` : '') : '(empty directory)');
        }),
    );
  }

  const commandTools = COMMAND_TOOL_NAMES.filter((n) => enabled.has(n));
  if (commandTools.length) {
    registerCommandTools(server, root, commandTools, {
      mode: opts.commandSandbox ?? 'auto',
      limits: commandLimitsOf(opts),
      plan: opts.commandPlan,
      probe: opts.sandboxProbe,
    });
  }

  return server;
}
