// A scenario's `tools:` names tools its session may use; a name no tool has would just be dropped
// from the allow list (a typo'd `exec_comand` ran silently without the command tool), so it is bad
// input, with the closest known name.
import { closestName, editDistance } from '../../common/closest-name';

/**
 * The workspace tool server's tools (WORKSPACE_TOOL_NAMES, then OPT_IN_TOOL_NAMES), written out:
 * importing the server to read them loaded the sandbox and the MCP SDK into every `loupe eval`
 * before its first scenario was parsed (0.35-0.7 s of its start). scenario-tool-names.spec.ts
 * keeps the two lists the same.
 */
export const BUILTIN_TOOL_NAMES: readonly string[] = ['read_file', 'write_file', 'list_files', 'execute_command', 'run_command'];

export interface NameProblem {
  path: Array<string | number>;
  message: string;
}

/** Tool names are long and few: a typo can drop several letters (`exec_comand`), so within half the longer name is close. */
function closestTool(name: string): string | undefined {
  const near = closestName(name, BUILTIN_TOOL_NAMES);
  if (near) return near;
  const lower = name.toLowerCase();
  const scored = BUILTIN_TOOL_NAMES.map((k) => ({ k, d: editDistance(lower, k), limit: Math.floor(Math.max(name.length, k.length) / 2) }));
  return scored.filter((s) => s.d <= s.limit).sort((a, b) => a.d - b.d)[0]?.k;
}

function unknownToolMessage(name: string): string {
  const guess = closestTool(name);
  return `unknown tool "${name}"${guess ? `; did you mean "${guess}"?` : ''} (known: ${BUILTIN_TOOL_NAMES.join(', ')})`;
}

const declaredServers = (mcpServers: unknown): string[] =>
  Array.isArray(mcpServers)
    ? mcpServers.flatMap((m) => (typeof (m as { name?: unknown })?.name === 'string' ? [(m as { name: string }).name] : []))
    : [];

/**
 * Each entry of `tools` that names no tool. An MCP server's tools are known only once it runs (and
 * join the session whatever this list says), so one is accepted here in the registry's qualified
 * form, `<server>__<tool>`, for a server the scenario declares.
 */
export function unknownToolNames(doc: unknown): NameProblem[] {
  const { tools, mcp_servers: mcpServers } = (doc ?? {}) as { tools?: unknown; mcp_servers?: unknown };
  if (!Array.isArray(tools)) return [];
  const servers = declaredServers(mcpServers);
  const problems: NameProblem[] = [];
  tools.forEach((name, i) => {
    if (typeof name !== 'string' || !name || BUILTIN_TOOL_NAMES.includes(name)) return;
    if (servers.some((s) => name.startsWith(`${s}__`) && name.length > s.length + 2)) return;
    const mcp = servers.length ? `; a tool of a declared MCP server is named <server>__<tool> (${servers.join(', ')})` : '';
    problems.push({ path: ['tools', i], message: `${unknownToolMessage(name)}${mcp}` });
  });
  return problems;
}
