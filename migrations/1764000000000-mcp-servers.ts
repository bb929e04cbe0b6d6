import type { MigrationInterface, QueryRunner } from 'typeorm';

/** External MCP servers configured once and connected per session (mcp-agent-technical-spec.md §7). */
export class McpServers1764000000000 implements MigrationInterface {
  name = 'McpServers1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE mcp_servers (
        name text PRIMARY KEY,
        transport text NOT NULL CHECK (transport IN ('stdio', 'http')),
        -- stdio: {command, args, env, cwd}; http: {url, headers}
        config jsonb NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        last_status text,
        last_error text,
        last_latency_ms int,
        last_tool_count int,
        last_checked_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mcp_servers`);
  }
}
