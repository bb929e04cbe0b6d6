import { Global, Module } from '@nestjs/common';
import { JournalRepository } from './journal.repository';
import { JournalService } from './journal.service';
import { SessionQueryRepository } from './session-query.repository';
import { StartupRecovery } from './startup-recovery';
import { StaleSessionsRepository } from './stale-sessions.repository';

@Global()
@Module({
  providers: [JournalRepository, JournalService, SessionQueryRepository, StaleSessionsRepository, StartupRecovery],
  exports: [JournalService, SessionQueryRepository, StaleSessionsRepository],
})
export class JournalModule {}
