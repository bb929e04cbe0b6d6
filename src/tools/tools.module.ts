import { Module } from '@nestjs/common';
import { McpServersRepository } from './mcp-servers.repository';
import { McpServersService } from './mcp-servers.service';
import { ToolsService } from './tools.service';

@Module({ providers: [ToolsService, McpServersRepository, McpServersService], exports: [ToolsService, McpServersService] })
export class ToolsModule {}
