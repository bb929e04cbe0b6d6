import { Logger, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { EvalModule } from '../eval/eval.module';
import { ProviderModule } from '../provider/provider.module';
import { SessionsModule } from '../sessions/sessions.module';
import { ToolsModule } from '../tools/tools.module';
import { AdminAuthGuard, ADMIN_TOKEN } from './admin-auth.guard';
import { resolveAdminToken } from './admin-token';
import { ApprovalsController } from './approvals.controller';
import { EvalRunsController } from './eval-runs.controller';
import { DoctorController } from './doctor.controller';
import { DoctorService } from './doctor.service';
import { HealthController } from './health.controller';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { apiValidationPipe } from './http/validation-errors';
import { McpController } from './mcp.controller';
import { ModelsController } from './models.controller';
import { ReadinessService } from './readiness.service';
import { SessionsController } from './sessions.controller';

@Module({
  imports: [ToolsModule, ProviderModule, SessionsModule, EvalModule],
  controllers: [
    HealthController,
    SessionsController,
    ApprovalsController,
    EvalRunsController,
    ModelsController,
    McpController,
    DoctorController,
  ],
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
    ReadinessService,
    DoctorService,
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_PIPE, useFactory: apiValidationPipe },
  ],
  exports: [ADMIN_TOKEN],
})
export class AdminModule {}
