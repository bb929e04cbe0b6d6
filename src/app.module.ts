import { type DynamicModule, Module } from '@nestjs/common';
import { ApprovalModule } from './approval/approval.module';
import { ConfigModule } from './config/config.module';
import type { LoupeConfig } from './config/loupe-config';
import { DatabaseModule } from './database/database.module';
import { EvalModule } from './eval/eval.module';
import { JournalModule } from './journal/journal.module';
import { ProcessModule } from './process/process.module';
import { ProviderModule } from './provider/provider.module';
import { ToolsModule } from './tools/tools.module';

@Module({})
export class AppModule {
  /** The same modules serve the HTTP app and the CLI; only the HTTP app mounts controllers. */
  static forRoot(config: LoupeConfig, opts: { http: boolean }): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        JournalModule,
        ApprovalModule,
        ProviderModule,
        ToolsModule,
        ProcessModule,
        EvalModule,
        ...(opts.http ? httpModules() : []),
      ],
    };
  }
}

/** Loaded for the HTTP app only: the CLI's start does not pay for controllers, DTOs, Swagger and socket.io. */
function httpModules(): NonNullable<DynamicModule['imports']> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { AdminModule } = require('./admin/admin.module') as typeof import('./admin/admin.module');
  const { LiveModule } = require('./live/live.module') as typeof import('./live/live.module');
  /* eslint-enable @typescript-eslint/no-require-imports */
  return [AdminModule, LiveModule];
}
