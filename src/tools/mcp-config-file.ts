// `mcp-config.json` (mcp-agent-technical-spec.md §2, the mcp-config volume; §7, POST /api/mcp/add:
// "Side Effects: Updates mcp-config.json"): the registry of external MCP servers written out under
// LOUPE_HOME, in the `{ "mcpServers": { <name>: <config> } }` shape MCP clients read. Postgres stays
// the registry; the file mirrors it, rewritten whole after every change and at start, and is never
// read back (a stale file must not bring back a removed server).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpServerConfig } from './external-mcp-config';

export const MCP_CONFIG_FILE = 'mcp-config.json';

export interface McpConfigEntry {
  name: string;
  config: McpServerConfig;
  enabled: boolean;
}

/** The file's text: servers by name (sorted, so an unchanged registry writes the same bytes); a disabled one says so. Pure. */
export function renderMcpConfig(servers: readonly McpConfigEntry[]): string {
  const sorted = [...servers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const mcpServers = Object.fromEntries(sorted.map((s) => [s.name, { ...s.config, ...(s.enabled ? {} : { disabled: true }) }]));
  return `${JSON.stringify({ mcpServers }, null, 2)}\n`;
}

export function mcpConfigPath(home: string): string {
  return path.join(home, MCP_CONFIG_FILE);
}

/**
 * Written beside itself and renamed over it: a reader sees the old file or the new one, never half
 * of one. Owner-only, as env values and headers may hold secrets.
 */
export function writeMcpConfig(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const staging = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(staging, text, { mode: 0o600 });
    fs.renameSync(staging, file);
  } catch (e) {
    fs.rmSync(staging, { force: true });
    throw e;
  }
}
