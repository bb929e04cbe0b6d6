import { Logger, Module } from '@nestjs/common';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { AdminAuthGuard, ADMIN_TOKEN } from './admin-auth.guard';
import { resolveAdminToken } from './admin-token';
import { HealthController } from './health.controller';
import { SessionsController } from './sessions.controller';

@Module({
  controllers: [HealthController, SessionsController],
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
