// The registry of external MCP servers (mcp-agent-technical-spec.md §7): add, list, remove, probe.
// The admin API and the CLI only delegate here; sessions get the registered configs by name. Every
// change rewrites mcp-config.json under LOUPE_HOME (./mcp-config-file.ts), and an added server is
// journaled (mcp_added, the spec's mcpAdded).
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { HostRecorder } from '../journal/host-recorder';
import { JournalService } from '../journal/journal.service';
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
import { mcpConfigPath, renderMcpConfig, writeMcpConfig } from './mcp-config-file';
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
export class McpServersService implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpServers');
  private readonly host: HostRecorder;
  /** file writes one after another, each from the registry as it is then: the last change always wins */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repository: McpServersRepository,
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    journal: JournalService,
  ) {
    this.host = new HostRecorder(journal);
  }

  get configFile(): string {
    return mcpConfigPath(this.config.home);
  }

  /** A file missing or out of date (written by an older Loupe, or deleted) is put in step at start. */
  async onApplicationBootstrap(): Promise<void> {
    await this.syncConfigFile().catch((e: Error) => this.logger.warn(`${this.configFile} not written: ${e.message}`));
  }

  /** `{ name, config }` → the registered server; McpServerInvalidError (field errors), McpServerExistsError. */
  async add(input: unknown): Promise<McpServerView> {
    const checked = validateMcpServer(input);
    if (!checked.ok) throw new McpServerInvalidError(checked.errors);
    const added = view(await this.repository.insert(checked.value));
    await this.syncConfigFile();
    this.host.event('mcp_added', {
      name: added.name,
      transport: added.transport,
      endpoint: added.endpoint,
      configFile: this.configFile,
    });
    return added;
  }

  async list(): Promise<McpServerView[]> {
    return (await this.repository.list()).map(view);
  }

  async remove(name: string): Promise<void> {
    if (!(await this.repository.remove(name))) throw new McpServerNotFoundError([name]);
    await this.syncConfigFile();
  }

  /** Rewrites mcp-config.json from the registry (atomically; calls queue behind each other). */
  syncConfigFile(): Promise<void> {
    const next = this.writing.then(async () => {
      const servers = await this.repository.list();
      writeMcpConfig(this.configFile, renderMcpConfig(servers));
    });
    this.writing = next.catch(() => undefined);
    return next;
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
