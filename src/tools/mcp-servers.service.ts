// The registry of external MCP servers (mcp-agent-technical-spec.md §7): add, list, remove, probe.
// The admin API and the CLI only delegate here; sessions get the registered configs by name.
import { Injectable } from '@nestjs/common';
import {
  endpointOf,
  redactConfig,
  transportOf,
  validateMcpServer,
  type ExternalMcpServerConfig,
  type McpServerConfig,
  type McpTransport,
} from './external-mcp-config';
import { McpServerInvalidError, McpServerNotFoundError } from './external-mcp-errors';
import { MCP_HEALTH_TIMEOUT_MS, probeServer, type McpHealthStatus } from './external-mcp-health';
import { McpServersRepository, type RegisteredMcpServer } from './mcp-servers.repository';

/** A registered server as the API and the CLI show it (env and header values redacted). */
export interface McpServerView {
  name: string;
  transport: McpTransport;
  /** the command line or the URL */
  endpoint: string;
  config: McpServerConfig;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  status: McpHealthStatus;
  latencyMs: number | null;
  toolCount: number | null;
  lastError: string | null;
  checkedAt: string | null;
}

export interface McpHealthReport {
  servers: McpServerView[];
  total: number;
  healthy: number;
  failed: number;
}

function view(s: RegisteredMcpServer): McpServerView {
  return {
    name: s.name,
    transport: transportOf(s.config),
    endpoint: endpointOf(s.config),
    config: redactConfig(s.config),
    enabled: s.enabled,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    status: s.health.status,
    latencyMs: s.health.latencyMs,
    toolCount: s.health.toolCount,
    lastError: s.health.error,
    checkedAt: s.health.checkedAt?.toISOString() ?? null,
  };
}

@Injectable()
export class McpServersService {
  constructor(private readonly repository: McpServersRepository) {}

  /** `{ name, config }` → the registered server; McpServerInvalidError (field errors), McpServerExistsError. */
  async add(input: unknown): Promise<McpServerView> {
    const checked = validateMcpServer(input);
    if (!checked.ok) throw new McpServerInvalidError(checked.errors);
    return view(await this.repository.insert(checked.value));
  }

  async list(): Promise<McpServerView[]> {
    return (await this.repository.list()).map(view);
  }

  async remove(name: string): Promise<void> {
    if (!(await this.repository.remove(name))) throw new McpServerNotFoundError([name]);
  }

  /** Probes every registered server at once (connect + tools/list, each within `timeoutMs`) and stores the results. */
  async health(timeoutMs = MCP_HEALTH_TIMEOUT_MS): Promise<McpHealthReport> {
    const servers = await this.repository.list();
    const checked = await Promise.all(
      servers.map(async (s) => {
        const health = await probeServer({ ...s.config, name: s.name }, timeoutMs);
        await this.repository.recordHealth(s.name, health);
        return view({ ...s, health });
      }),
    );
    return {
      servers: checked,
      total: checked.length,
      healthy: checked.filter((s) => s.status === 'connected').length,
      failed: checked.filter((s) => s.status === 'failed').length,
    };
  }

  /** The full configs of registered servers, for a session; McpServerNotFoundError names any missing. */
  async configsFor(names: readonly string[]): Promise<ExternalMcpServerConfig[]> {
    const found = new Map((await this.repository.findByNames(names)).map((s) => [s.name, s]));
    const missing = names.filter((n) => !found.has(n));
    if (missing.length) throw new McpServerNotFoundError(missing);
    return names.map((n) => ({ ...found.get(n)!.config, name: n }));
  }
}
