import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { hostname } from 'node:os';
import { StaleSessionsRepository } from './stale-sessions.repository';
import { processAlive } from '../common/process-alive';


/** At start: sessions left "running" by a dead Loupe process on this host are closed as interrupted. */
@Injectable()
export class StaleSessionReaper implements OnApplicationBootstrap {
  private readonly logger = new Logger('Sessions');

  constructor(private readonly stale: StaleSessionsRepository) {}

  async onApplicationBootstrap(): Promise<void> {
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
    if (closed.length) this.logger.warn(`closed ${closed.length} session(s)/run(s) left running by a Loupe process that died: ${closed.join(', ')}`);
    return closed;
  }
}
