import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOperation,
  ApiTags,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  type SchemaObject,
} from '@nestjs/swagger';
import { McpServersService, type McpHealthReport, type McpServerView } from '../tools/mcp-servers.service';
import { AdminAuthGuard } from './admin-auth.guard';
import { MCP_ADD_BODY_SCHEMA, McpHealthReportDto, McpServerViewDto } from './dto/responses/mcp-responses.dto';
import { ApiErrors } from './http/api-errors.decorator';

/** External MCP servers (mcp-agent-technical-spec.md §7): the registry in Postgres and its health. */
@ApiTags('mcp')
@ApiBearerAuth()
@Controller('api/mcp')
@UseGuards(AdminAuthGuard)
export class McpController {
  constructor(private readonly servers: McpServersService) {}

  @Get()
  @ApiOkResponse({ type: [McpServerViewDto] })
  @ApiOperation({ summary: 'Registered external MCP servers' })
  list(): Promise<McpServerView[]> {
    return this.servers.list();
  }

  /** Probes every server now (connect + tools/list, with a timeout): per-server health and totals. */
  @Get('health')
  @ApiOkResponse({ type: McpHealthReportDto })
  @ApiOperation({ summary: 'Probe every registered server now: per-server health and totals' })
  health(): Promise<McpHealthReport> {
    return this.servers.health();
  }

  /** `{ name, config }` → 201, 400 `{ errors: [{ field, message }] }`, 409 for a taken name. */
  @Post('add')
  @ApiBody({ schema: MCP_ADD_BODY_SCHEMA as SchemaObject, description: '{ name, config }: a stdio command or a Streamable HTTP URL' })
  @ApiCreatedResponse({ type: McpServerViewDto })
  @ApiErrors({ 409: 'that name is taken (`name` says which)' })
  @ApiOperation({ summary: 'Register a server: { name, config }' })
  add(@Body() body: unknown): Promise<McpServerView> {
    return this.servers.add(body);
  }

  @Delete(':name')
  @ApiOperation({ summary: 'Remove a registered server' })
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'removed' })
  @ApiErrors({ 404: 'no server by that name' })
  remove(@Param('name') name: string): Promise<void> {
    return this.servers.remove(name);
  }
}
