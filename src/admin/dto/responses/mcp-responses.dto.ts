import { ApiProperty } from '@nestjs/swagger';
import { MCP_HEALTH_STATUSES, type McpHealthStatus } from '../../../tools/external-mcp-health';
import { MCP_TRANSPORTS, mcpServerJsonSchemas, type McpServerConfig, type McpTransport } from '../../../tools/external-mcp-config';
import type { McpHealthReport, McpServerView } from '../../../tools/mcp-servers.service';

const schemas = mcpServerJsonSchemas();

/** POST /api/mcp/add's body, from the zod schemas the registry validates with */
export const MCP_ADD_BODY_SCHEMA = schemas.body;

interface Branch {
  properties?: { transport?: { enum?: string[] } };
  required?: string[];
}

// a stdio config recorded before HTTP servers existed has no transport: shown as stored
const shownConfig = {
  ...schemas.config,
  oneOf: (schemas.config.oneOf as Branch[]).map((b) =>
    b.properties?.transport?.enum?.[0] === 'stdio' ? { ...b, required: b.required?.filter((f) => f !== 'transport') } : b,
  ),
};

export class McpServerViewDto implements McpServerView {
  @ApiProperty() name!: string;
  @ApiProperty({ enum: MCP_TRANSPORTS }) transport!: McpTransport;
  @ApiProperty({ description: 'the command line or the URL' }) endpoint!: string;
  @ApiProperty({ ...shownConfig, description: 'as registered, env and header values shown as ***' }) config!: McpServerConfig;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ enum: MCP_HEALTH_STATUSES }) status!: McpHealthStatus;
  @ApiProperty({ type: Number, nullable: true }) latencyMs!: number | null;
  @ApiProperty({ type: Number, nullable: true }) toolCount!: number | null;
  @ApiProperty({ type: String, nullable: true }) lastError!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) checkedAt!: string | null;
}

export class McpHealthReportDto implements McpHealthReport {
  @ApiProperty({ type: [McpServerViewDto] }) servers!: McpServerViewDto[];
  @ApiProperty() total!: number;
  @ApiProperty() healthy!: number;
  @ApiProperty() failed!: number;
}
