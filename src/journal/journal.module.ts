import { Global, Module } from '@nestjs/common';
import { JournalRepository } from './journal.repository';
import { JournalService } from './journal.service';
import { SessionQueryRepository } from './session-query.repository';

@Global()
@Module({
  providers: [JournalRepository, JournalService, SessionQueryRepository],
  exports: [JournalService, SessionQueryRepository],
})
export class JournalModule {}
