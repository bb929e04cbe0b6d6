import { Module } from '@nestjs/common';
import { ProcessModule } from '../process/process.module';
import { ProviderModule } from '../provider/provider.module';
import { ToolsModule } from '../tools/tools.module';
import { SessionJanitor } from './session-janitor.service';
import { SessionLauncher } from './session-launcher.service';
import { SessionsService } from './sessions.service';

@Module({
  imports: [ProcessModule, ProviderModule, ToolsModule],
  providers: [SessionLauncher, SessionsService, SessionJanitor],
  exports: [SessionLauncher, SessionsService, SessionJanitor],
})
export class SessionsModule {}
