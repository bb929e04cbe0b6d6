import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An external MCP server registered once (admin API, `loupe mcp add`) and connected per session. */
@Entity({ name: 'mcp_servers' })
export class McpServerEntity {
  @PrimaryColumn('text') name!: string;
  @Column('text') transport!: string;
  /** stdio: {command, args, env, cwd}; http: {url, headers} */
  @Column('jsonb') config!: Record<string, unknown>;
  @Column('boolean') enabled!: boolean;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
  /** the last health probe: connected | failed; null until one ran */
  @Column('text', { name: 'last_status', nullable: true }) lastStatus!: string | null;
  @Column('text', { name: 'last_error', nullable: true }) lastError!: string | null;
  @Column('int', { name: 'last_latency_ms', nullable: true }) lastLatencyMs!: number | null;
  @Column('int', { name: 'last_tool_count', nullable: true }) lastToolCount!: number | null;
  @Column('timestamptz', { name: 'last_checked_at', nullable: true }) lastCheckedAt!: Date | null;
}
