import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { hostname } from 'node:os';
import { processAlive } from '../common/process-alive';
import { JournalService } from './journal.service';
import { StaleSessionsRepository } from './stale-sessions.repository';

/**
 * At start, in this order: entries an earlier process spilled are written (they may finish its
 * sessions), then sessions and eval runs still left "running" by a dead Loupe process on this host
 * are closed as interrupted. The other order would close a session the spill completes, and its
 * spilled events would collide with the interruption's.
 */
@Injectable()
export class StartupRecovery implements OnApplicationBootstrap {
  private readonly logger = new Logger('Sessions');

  constructor(
    private readonly journal: JournalService,
    private readonly stale: StaleSessionsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.journal.replaySpills();
    await this.reap();
  }

  async reap(): Promise<string[]> {
    const closed: string[] = [];
    for (const s of await this.stale.runningOnHost(hostname(), process.pid)) {
      if (processAlive(s.ownerPid)) continue;
      await this.stale.markInterrupted(s.id, s.ownerPid);
      closed.push(s.id);
    }
    for (const r of await this.stale.runningEvalRunsOnHost(hostname(), process.pid)) {
      if (processAlive(r.ownerPid)) continue;
      await this.stale.markEvalRunInterrupted(r.id);
      closed.push(`eval run ${r.id}`);
    }
    if (closed.length)
      this.logger.warn(`closed ${closed.length} session(s)/run(s) left running by a Loupe process that died: ${closed.join(', ')}`);
    return closed;
  }
}
