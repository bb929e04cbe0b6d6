import { type DynamicModule, Module } from '@nestjs/common';
import { AdminModule } from './admin/admin.module';
import { ApprovalModule } from './approval/approval.module';
import { ConfigModule } from './config/config.module';
import type { LoupeConfig } from './config/loupe-config';
import { DatabaseModule } from './database/database.module';
import { EvalModule } from './eval/eval.module';
import { JournalModule } from './journal/journal.module';
import { LiveModule } from './live/live.module';
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
        ...(opts.http ? [AdminModule, LiveModule] : []),
      ],
    };
  }
}
