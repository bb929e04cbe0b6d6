// Liveness (the process answers, and says whether Postgres does) and readiness (it can do its work:
// Postgres answers, and the configured Ollama does — without OLLAMA_HOST, sessions are scripted on
// stand-ins and the default local Ollama is reported but not required).
import { Inject, Injectable } from '@nestjs/common';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { DatabaseProbe } from '../database/database-probe.repository';
import { ModelsService } from '../provider/models.service';

export interface Liveness {
  status: 'ok' | 'degraded';
  database: 'up' | 'down';
}

export interface Readiness {
  ready: boolean;
  database: 'up' | 'down';
  ollama: { host: string; configured: boolean; reachable: boolean };
}

@Injectable()
export class ReadinessService {
  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly database: DatabaseProbe,
    private readonly models: ModelsService,
  ) {}

  async liveness(): Promise<Liveness> {
    const database = await this.database.answers();
    return { status: database === 'up' ? 'ok' : 'degraded', database };
  }

  async readiness(): Promise<Readiness> {
    const [database, reachable] = await Promise.all([this.database.answers(), this.models.isAvailable()]);
    const configured = Boolean(this.config.ollama.host);
    return {
      ready: database === 'up' && (reachable || !configured),
      database,
      ollama: { host: this.models.ollamaHost, configured, reachable },
    };
  }
}
