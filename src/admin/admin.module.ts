import { Logger, Module } from '@nestjs/common';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { AdminAuthGuard, ADMIN_TOKEN } from './admin-auth.guard';
import { resolveAdminToken } from './admin-token';
import { HealthController } from './health.controller';
import { McpController } from './mcp.controller';
import { SessionsController } from './sessions.controller';
import { ToolsModule } from '../tools/tools.module';

@Module({
  imports: [ToolsModule],
  controllers: [HealthController, SessionsController, McpController],
  providers: [
    {
      provide: ADMIN_TOKEN,
      inject: [LOUPE_CONFIG],
      useFactory: (config: LoupeConfig): string => {
        const { token, generated, file } = resolveAdminToken(config.home, config.adminToken);
        if (generated) new Logger('Admin').warn(`LOUPE_ADMIN_TOKEN not set; generated one and saved it to ${file}`);
        return token;
      },
    },
    AdminAuthGuard,
  ],
})
export class AdminModule {}
