import { Global, Module } from '@nestjs/common';
import { JournalRepository } from './journal.repository';
import { JournalService } from './journal.service';
import { SessionQueryRepository } from './session-query.repository';
import { StaleSessionReaper } from './stale-session-reaper';
import { StaleSessionsRepository } from './stale-sessions.repository';

@Global()
@Module({
  providers: [JournalRepository, JournalService, SessionQueryRepository, StaleSessionsRepository, StaleSessionReaper],
  exports: [JournalService, SessionQueryRepository],
})
export class JournalModule {}
