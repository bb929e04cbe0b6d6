import { Module } from '@nestjs/common';
import { ProcessModule } from '../process/process.module';
import { ProviderModule } from '../provider/provider.module';
import { ToolsModule } from '../tools/tools.module';
import { SessionLauncher } from './session-launcher.service';
import { SessionsService } from './sessions.service';

@Module({
  imports: [ProcessModule, ProviderModule, ToolsModule],
  providers: [SessionLauncher, SessionsService],
  exports: [SessionLauncher, SessionsService],
})
export class SessionsModule {}
