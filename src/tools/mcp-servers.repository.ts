// The registered external MCP servers in Postgres (`mcp_servers`): their configs and the result of
// the last health probe. The only place that knows the table.
import { Injectable } from '@nestjs/common';
import { DataSource, In, QueryFailedError } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { McpServerEntity } from '../database/entities';
import type { ExternalMcpServerConfig, McpServerConfig } from './external-mcp-config';
import { McpServerExistsError } from './external-mcp-errors';
import { NOT_CHECKED, type McpHealthStatus, type McpServerHealth } from './external-mcp-health';

export interface RegisteredMcpServer {
  name: string;
  config: McpServerConfig;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  health: McpServerHealth;
}

const UNIQUE_VIOLATION = '23505';

function toServer(e: McpServerEntity): RegisteredMcpServer {
  const config = { transport: e.transport, ...e.config } as McpServerConfig;
  const health: McpServerHealth = e.lastStatus
    ? {
        status: e.lastStatus as McpHealthStatus,
        latencyMs: e.lastLatencyMs,
        toolCount: e.lastToolCount,
        error: e.lastError,
        checkedAt: e.lastCheckedAt,
      }
    : NOT_CHECKED;
  return { name: e.name, config, enabled: e.enabled, createdAt: e.createdAt, updatedAt: e.updatedAt, health };
}

@Injectable()
export class McpServersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get rows() {
    return this.dataSource.getRepository(McpServerEntity);
  }

  /** Throws McpServerExistsError when the name is taken (also when two adds race). */
  async insert(server: ExternalMcpServerConfig, now = new Date()): Promise<RegisteredMcpServer> {
    const { name, transport, ...config } = server;
    const row: McpServerEntity = {
      name,
      transport: transport ?? 'stdio',
      config,
      enabled: true,
      createdAt: now,
      updatedAt: now,
      lastStatus: null,
      lastError: null,
      lastLatencyMs: null,
      lastToolCount: null,
      lastCheckedAt: null,
    };
    try {
      // TypeORM's partial-entity type does not take a jsonb column typed as a plain record
      await this.rows.insert(row as QueryDeepPartialEntity<McpServerEntity>);
    } catch (e) {
      if (e instanceof QueryFailedError && (e.driverError as { code?: string })?.code === UNIQUE_VIOLATION)
        throw new McpServerExistsError(name);
      throw e;
    }
    return toServer(row);
  }

  async list(): Promise<RegisteredMcpServer[]> {
    return (await this.rows.find({ order: { name: 'ASC' } })).map(toServer);
  }

  async findByNames(names: readonly string[]): Promise<RegisteredMcpServer[]> {
    if (!names.length) return [];
    return (await this.rows.find({ where: { name: In([...names]) } })).map(toServer);
  }

  /** false when there was no such server */
  async remove(name: string): Promise<boolean> {
    const result = await this.rows.delete({ name });
    return (result.affected ?? 0) > 0;
  }

  async recordHealth(name: string, health: McpServerHealth): Promise<void> {
    await this.rows.update(
      { name },
      {
        lastStatus: health.status,
        lastError: health.error,
        lastLatencyMs: health.latencyMs,
        lastToolCount: health.toolCount,
        lastCheckedAt: health.checkedAt,
      },
    );
  }
}
