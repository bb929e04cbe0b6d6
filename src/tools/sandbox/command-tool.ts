// The command tool on the built-in MCP server: `execute_command` (the spec's name) and its alias
// `run_command`, registered only when the session's allow list names them.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runCommand } from '../workspace/run-command';
import type { CommandLimits } from './command-limits';
import { describeCommandResult } from './command-result';
import { planCommandSandbox, type CommandPlan, type CommandSandboxMode } from './sandbox-plan';
import { probeSandbox, type SandboxProber } from './sandbox-probe';

export const COMMAND_TOOL_NAMES = ['execute_command', 'run_command'] as const;
export type CommandToolName = (typeof COMMAND_TOOL_NAMES)[number];

export async function resolveCommandPlan(
  mode: CommandSandboxMode,
  limits: CommandLimits,
  probe: SandboxProber = probeSandbox,
): Promise<CommandPlan> {
  return planCommandSandbox(mode, await probe(), limits);
}

export interface CommandToolOptions {
  mode: CommandSandboxMode;
  limits: CommandLimits;
  /** decided when the session's tools are assembled (and recorded); worked out on the first call when absent */
  plan?: CommandPlan;
  probe?: SandboxProber;
}

function description(mode: CommandSandboxMode, limits: CommandLimits): string {
  const mb = Math.round(limits.memoryBytes / (1024 * 1024));
  const where =
    mode === 'none'
      ? 'in the workspace directory (not sandboxed: this session opted out; scrubbed environment). '
      : 'in the workspace, inside a sandbox: the workspace is /workspace and the only writable place besides /tmp; no network. ';
  return (
    `Run a shell command (/bin/sh -c) ${where}` +
    `Limits: ${limits.timeoutMs / 1000} s, ${mb} MB memory, ${limits.cpu} CPU, ${limits.pids} processes, ${limits.outputBytes} bytes of output (more kills the command).`
  );
}

// built once (zod compiles a schema's parser on first use)
const COMMAND_INPUT = z.object({ command: z.string().min(1).describe('The shell command to run') });

export function registerCommandTools(server: McpServer, root: string, names: readonly CommandToolName[], opts: CommandToolOptions): void {
  let plan: Promise<CommandPlan> | undefined = opts.plan && Promise.resolve(opts.plan);
  const handler = async ({ command }: { command: string }, extra: { signal: AbortSignal }) => {
    const decided = await (plan ??= resolveCommandPlan(opts.mode, opts.limits, opts.probe));
    const content = (text: string) => [{ type: 'text' as const, text }];
    if (decided.run === 'refuse') return { content: content(decided.refusal), isError: true };
    const { text, isError } = describeCommandResult(await runCommand(command, decided, root, extra.signal), decided.limits);
    return isError ? { content: content(text), isError: true } : { content: content(text) };
  };
  for (const name of names) {
    server.registerTool(
      name,
      {
        description: description(opts.mode, opts.limits),
        inputSchema: COMMAND_INPUT,
      },
      handler,
    );
  }
}
